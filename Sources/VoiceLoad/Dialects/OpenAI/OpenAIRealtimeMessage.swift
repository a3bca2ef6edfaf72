import Foundation
import WSCore

/// One OpenAI Realtime event as parsed from a frame: a JSON object with a string `type`
/// (docs/dialects.md). Shared by the client and the server side of the dialect.
struct OpenAIRealtimeMessage {
    /// The `type` discriminator.
    var type: String
    /// The whole event object.
    var object: [String: JSONValue]

    /// The event in `frame` (JSON in a text or binary frame), or why the frame is not one.
    static func parse(_ frame: WireFrame) -> Result<OpenAIRealtimeMessage, JSONFrameError> {
        let object: [String: JSONValue]
        switch JSONFrame.object(in: frame) {
        case .success(let parsed): object = parsed
        case .failure(let error): return .failure(error)
        }
        guard let rawType = object["type"] else {
            return .failure(JSONFrameError(reason: "event has no \"type\""))
        }
        guard let type = rawType.stringValue else {
            return .failure(JSONFrameError(reason: "\"type\" is \(JSONFrame.kindName(of: rawType)), not a string"))
        }
        return .success(OpenAIRealtimeMessage(type: type, object: object))
    }

    /// The string member `key` of the event, if there is one.
    func string(_ key: String) -> String? {
        object[key]?.stringValue
    }

    /// The object member `key` of the event, if there is one.
    func member(_ key: String) -> [String: JSONValue]? {
        object[key]?.objectValue
    }
}

/// The wire names of OpenAI Realtime events, GA first, beta aliases marked (docs/dialects.md).
enum OpenAIRealtimeEventName {
    // Client → server.
    static let sessionUpdate = "session.update"
    static let inputAudioAppend = "input_audio_buffer.append"
    static let inputAudioCommit = "input_audio_buffer.commit"
    static let inputAudioClear = "input_audio_buffer.clear"
    static let responseCreate = "response.create"
    static let responseCancel = "response.cancel"
    static let itemCreate = "conversation.item.create"
    static let itemTruncate = "conversation.item.truncate"
    static let outputAudioClear = "output_audio_buffer.clear"

    // Server → client.
    /// WebRTC only: the answer's audio starts leaving the server, is all out, or was cut off.
    static let outputAudioBufferStarted = "output_audio_buffer.started"
    static let outputAudioBufferStopped = "output_audio_buffer.stopped"
    static let outputAudioBufferCleared = "output_audio_buffer.cleared"
    static let sessionCreated = "session.created"
    static let sessionUpdated = "session.updated"
    static let speechStarted = "input_audio_buffer.speech_started"
    static let speechStopped = "input_audio_buffer.speech_stopped"
    static let inputAudioCommitted = "input_audio_buffer.committed"
    static let inputTranscriptionDelta = "conversation.item.input_audio_transcription.delta"
    static let inputTranscriptionCompleted = "conversation.item.input_audio_transcription.completed"
    static let inputTranscriptionFailed = "conversation.item.input_audio_transcription.failed"
    static let responseCreated = "response.created"
    static let outputAudioDelta = "response.output_audio.delta"
    static let betaAudioDelta = "response.audio.delta"
    static let outputAudioDone = "response.output_audio.done"
    static let betaAudioDone = "response.audio.done"
    static let outputAudioTranscriptDelta = "response.output_audio_transcript.delta"
    static let betaAudioTranscriptDelta = "response.audio_transcript.delta"
    static let outputAudioTranscriptDone = "response.output_audio_transcript.done"
    static let betaAudioTranscriptDone = "response.audio_transcript.done"
    static let outputTextDelta = "response.output_text.delta"
    static let betaTextDelta = "response.text.delta"
    static let outputTextDone = "response.output_text.done"
    static let betaTextDone = "response.text.done"
    static let functionArgumentsDone = "response.function_call_arguments.done"
    static let outputItemAdded = "response.output_item.added"
    static let outputItemDone = "response.output_item.done"
    static let responseDone = "response.done"
    static let error = "error"
    /// The `error.code` of a `response.cancel` that found no response in progress.
    static let cancelNotActiveCode = "response_cancel_not_active"

    /// The header that asked for the beta interface, which OpenAI removed in 2026: a session
    /// opened with it is closed with 4000 `beta_api_shape_disabled`.
    static let betaHeader = (name: "OpenAI-Beta", value: "realtime=v1")
    static let betaRemovedCloseCode = 4000
    static let betaRemovedCloseReason = "beta_api_shape_disabled"
    /// The example of a `beta_api_removed` error: what happened and what to change.
    static let betaRemovedAdvice =
        "closed with 4000 beta_api_shape_disabled: OpenAI removed the Realtime beta interface; "
        + "drop the \(betaHeader.name) header (--header): vload speaks the GA interface"

    /// Server events that carry nothing vload measures: known, so not counted as unknown
    /// (`response.output_item.*` is structural too, but read for function names). The
    /// conformance suite feeds every server event of the openai SDK's GA and beta unions
    /// through the codec, so a type missing here fails it (docs/conformance.md).
    static let structural: Set<String> = [
        "input_audio_buffer.committed", "input_audio_buffer.cleared", "input_audio_buffer.timeout_triggered",
        "input_audio_buffer.dtmf_event_received",
        "response.content_part.added", "response.content_part.done",
        "response.function_call_arguments.delta",
        "rate_limits.updated", "conversation.created", "transcription_session.updated",
        outputAudioBufferStarted, outputAudioBufferStopped, outputAudioBufferCleared,
    ]

    /// The beta names still read (Azure OpenAI's dated api-versions send them).
    static let betaAliases: Set<String> = [
        betaAudioDelta, betaAudioDone, betaAudioTranscriptDelta, betaAudioTranscriptDone, betaTextDelta, betaTextDone,
    ]

    /// Every server event type the codec reads by name, the structural ones too (the families
    /// of `structuralPrefixes` are read by prefix, not by name).
    static let serverTypesRead: [String] =
        [
            sessionCreated, sessionUpdated, speechStarted, speechStopped, inputTranscriptionDelta, inputTranscriptionCompleted,
            inputTranscriptionFailed, responseCreated, outputAudioDelta, outputAudioDone, outputAudioTranscriptDelta,
            outputAudioTranscriptDone, outputTextDelta, outputTextDone, functionArgumentsDone, outputItemAdded, outputItemDone,
            responseDone, error,
        ] + betaAliases.sorted() + structural.sorted()

    /// Azure Voice Live's own server events (azure-ai-voicelive 1.3.1 `ServerEventType`):
    /// `warning` is read as a warning; the avatar, animation, word-timestamp, video and
    /// search-call events carry nothing vload measures.
    static let warning = "warning"
    static let azureStructural: Set<String> = [
        "response.animation_blendshapes.delta", "response.animation_blendshapes.done", "response.audio_timestamp.delta",
        "response.audio_timestamp.done", "response.animation_viseme.delta", "response.animation_viseme.done", "response.video.delta",
        "response.audio_transcript.annotation.added", "response.invocation.delta",
    ]
    static let azureStructuralPrefixes = [
        "session.avatar.", "response.web_search_call.", "response.file_search_call.", "item.input_audio_transcription.",
    ]

    /// The server event types the Azure Voice Live profile reads by name: the measured events in
    /// Voice Live's spelling (the beta audio names), its warning and its structural events.
    static let azureTypesRead: [String] =
        [
            sessionCreated, sessionUpdated, speechStarted, speechStopped, inputTranscriptionDelta, inputTranscriptionCompleted,
            inputTranscriptionFailed, responseCreated, functionArgumentsDone, outputItemAdded, outputItemDone, responseDone, error,
            warning,
        ] + betaAliases.sorted() + azureStructural.sorted()

    /// Families of structural events: every `conversation.item.*` event not mapped explicitly
    /// (`added`, `done`, beta `created`, `truncated`, `deleted`, `retrieved`), and the remote
    /// MCP tool events (`mcp_list_tools.*`, `response.mcp_call.*`, `response.mcp_call_arguments.*`).
    static let structuralPrefixes = [
        "conversation.item.", "mcp_list_tools.", "response.mcp_call.", "response.mcp_call_arguments.",
    ]
}
