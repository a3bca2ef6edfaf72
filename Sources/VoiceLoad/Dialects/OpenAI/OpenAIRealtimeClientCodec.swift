import Foundation
import WSCore

/// The client side of one OpenAI Realtime connection: sends the GA `session.update` on open,
/// encodes intents as client events, and maps server events (GA names and beta aliases) to
/// normalized events. Its state: the name of each function call announced in a
/// `response.output_item.*` item, for `response.function_call_arguments.done` events that do
/// not repeat it, and the item id of the latest agent audio, for `conversation.item.truncate`
/// on barge-in.
struct OpenAIRealtimeClientCodec: ClientCodec {
    typealias Name = OpenAIRealtimeEventName

    let dialect: OpenAIRealtimeClientDialect
    let parameters: [String: JSONValue]
    /// Function name by `call_id`, from function-call items; entries go when the call is reported.
    private(set) var functionNames: [String: String] = [:]
    /// More names than this are not remembered (a server that never finishes its calls).
    static let functionNameLimit = 64
    /// The `item_id` of the latest agent audio, for `conversation.item.truncate` on barge-in.
    private(set) var lastAudioItemID: String?

    /// Whether the session turns server turn detection off: the client commits each utterance.
    let manualTurns: Bool

    init(dialect: OpenAIRealtimeClientDialect, parameters: [String: JSONValue]) {
        self.dialect = dialect
        self.parameters = parameters
        self.manualTurns = OpenAIRealtimeSession.hasManualTurns(OpenAIRealtimeSession.scenarioSession(parameters))
    }

    /// Manual turns (`turn_detection: null`): `input_audio_buffer.commit` then
    /// `response.create`; with server turn detection, nothing.
    func framesAfterUtterance() -> [WireFrame] {
        manualTurns ? [Self.event(Name.inputAudioCommit), Self.event(Name.responseCreate)] : []
    }

    func framesOnOpen() -> [WireFrame] {
        [dialect.sessionUpdateFrame(parameters: parameters)]
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        if let shared = audio.sharedFrame { return shared }
        return EncodedFrame(.text(OpenAIRealtimeClientDialect.appendText(base64: audio.base64 ?? "")))
    }

    /// `start` → `session.update` (its parameters read like the scenario's), `audio` → append,
    /// `interrupt` → `response.cancel`, `playbackTruncated` → `conversation.item.truncate` of the
    /// latest agent audio item, `commit` → `input_audio_buffer.commit`, `toolResult` →
    /// a `function_call_output` item and `response.create`, `text` → a user message item and
    /// `response.create`; OpenAI has no stop, keep-alive or mark message.
    mutating func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .start(let parameters):
            return [dialect.sessionUpdateFrame(parameters: parameters)]
        case .audio(let bytes):
            return [.text(OpenAIRealtimeClientDialect.appendText(base64: Data(bytes).base64EncodedString()))]
        case .interrupt:
            return [Self.event(Name.responseCancel)]
        case .commit:
            return [Self.event(Name.inputAudioCommit)]
        case .toolResult(let callID, _, let output):
            let item: [String: JSONValue] = ["type": "function_call_output", "call_id": .string(callID), "output": .string(output)]
            return [.text(JSONFrame.text(["type": .string(Name.itemCreate), "item": .object(item)])), Self.event(Name.responseCreate)]
        case .text(let text):
            let item: [String: JSONValue] = [
                "type": "message", "role": "user", "content": [["type": "input_text", "text": .string(text)]],
            ]
            return [.text(JSONFrame.text(["type": .string(Name.itemCreate), "item": .object(item)])), Self.event(Name.responseCreate)]
        case .playbackTruncated(let audioEndMs):
            // The item the caller was hearing; none yet, nothing to truncate.
            guard let itemID = lastAudioItemID else { return [] }
            return [
                .text(
                    JSONFrame.text([
                        "type": .string(Name.itemTruncate), "item_id": .string(itemID), "content_index": 0,
                        "audio_end_ms": .int(audioEndMs),
                    ])
                )
            ]
        case .stop, .keepAlive, .markPlayed, .dtmf, .configure:
            return []
        }
    }

    mutating func receive(_ frame: WireFrame) -> DecodedFrame {
        switch OpenAIRealtimeMessage.parse(frame) {
        case .success(let message): return DecodedFrame(events: events(of: message))
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
    }

    /// The normalized events of one server event (docs/dialects.md).
    mutating func events(of message: OpenAIRealtimeMessage) -> [NormalizedEvent] {
        switch message.type {
        case Name.sessionCreated:
            var ids: [String: String] = [:]
            if let sessionID = message.member("session")?["id"]?.stringValue { ids["session_id"] = sessionID }
            return [.sessionStarted(ids: ids)]
        case Name.sessionUpdated:
            return [.sessionReady]
        case Name.outputAudioDelta, Name.betaAudioDelta:
            if let itemID = message.string("item_id") { lastAudioItemID = itemID }
            return audioEvents(message)
        case Name.responseCreated:
            return [.agentSpeechStarted(turnKey: message.member("response")?["id"]?.stringValue)]
        case Name.outputAudioDone, Name.betaAudioDone:
            return [.agentSpeechEnded(turnKey: message.string("response_id"))]
        case Name.responseDone:
            return responseDoneEvents(message)
        case Name.speechStarted:
            return [.userSpeechStarted]
        case Name.speechStopped:
            return [.userSpeechStopped]
        case Name.inputTranscriptionDelta:
            return Self.transcript(role: "user", text: message.string("delta"), isFinal: false)
        case Name.inputTranscriptionCompleted:
            return Self.transcript(role: "user", text: message.string("transcript"), isFinal: true)
        case Name.inputTranscriptionFailed:
            return [errorEvent(message.member("error"), fallbackCode: "transcription_failed")]
        case Name.outputAudioTranscriptDelta, Name.betaAudioTranscriptDelta, Name.outputTextDelta, Name.betaTextDelta:
            return Self.transcript(role: "agent", text: message.string("delta"), isFinal: false)
        case Name.outputAudioTranscriptDone, Name.betaAudioTranscriptDone:
            return Self.transcript(role: "agent", text: message.string("transcript"), isFinal: true)
        case Name.outputTextDone, Name.betaTextDone:
            return Self.transcript(role: "agent", text: message.string("text"), isFinal: true)
        case Name.functionArgumentsDone:
            let callID = message.string("call_id")
            let remembered = callID.flatMap { functionNames.removeValue(forKey: $0) }
            return [
                .toolCall(
                    name: message.string("name") ?? remembered ?? "",
                    status: "requested",
                    id: callID,
                    arguments: message.string("arguments")
                )
            ]
        case Name.outputItemAdded, Name.outputItemDone:
            rememberFunctionName(message.member("item"))
            return []
        case Name.error:
            if message.member("error")?["code"]?.stringValue == Name.cancelNotActiveCode { return [.cancelNotActive] }
            return [errorEvent(message.member("error"), fallbackCode: nil)]
        case Name.warning where dialect.profile == .azureVoiceLive:
            let warning = message.member("warning")
            return [.warning(code: warning?["code"]?.stringValue, message: warning?["message"]?.stringValue ?? "")]
        default:
            if Name.structural.contains(message.type) || Name.structuralPrefixes.contains(where: message.type.hasPrefix) { return [] }
            if dialect.profile == .azureVoiceLive,
                Name.azureStructural.contains(message.type) || Name.azureStructuralPrefixes.contains(where: message.type.hasPrefix)
            {
                return []
            }
            return [.unknown(type: message.type)]
        }
    }

    /// A delta's audio as a chunk of the output format, keyed by its `response_id`; nothing
    /// for an empty or absent delta.
    private func audioEvents(_ message: OpenAIRealtimeMessage) -> [NormalizedEvent] {
        let base64: String
        switch message.object["delta"] {
        case nil, .some(.null): return []
        case .some(.string(let text)): base64 = text
        case .some(let other):
            return [.malformed(reason: "\(message.type) delta is \(JSONFrame.kindName(of: other)), not a string")]
        }
        if base64.isEmpty { return [] }
        guard let chunk = AgentAudioChunk(base64: base64, format: dialect.outputFormat, turnKey: message.string("response_id")) else {
            return [.malformed(reason: "\(message.type) delta is not valid base64 (\(base64.utf8.count) characters)")]
        }
        if chunk.byteCount == 0 { return [] }
        return [.agentAudio(chunk)]
    }

    /// `response.done` ends the turn; a cancelled response is also reported as cancelled, and
    /// a failed one as an error.
    private func responseDoneEvents(_ message: OpenAIRealtimeMessage) -> [NormalizedEvent] {
        let response = message.member("response")
        let turnKey = response?["id"]?.stringValue
        var events: [NormalizedEvent] = [.turnComplete(turnKey: turnKey)]
        switch response?["status"]?.stringValue {
        case "cancelled":
            // The cancellation first: it ends the turn as interrupted, not completed.
            events.insert(.responseCancelled(turnKey: turnKey), at: 0)
        case "failed":
            let details = response?["status_details"]?.objectValue
            events.append(errorEvent(details?["error"]?.objectValue, fallbackCode: "response_failed"))
        default:
            break
        }
        return events
    }

    /// An in-band error, recoverable: code from `code`, else the error `type`.
    private func errorEvent(_ error: [String: JSONValue]?, fallbackCode: String?) -> NormalizedEvent {
        let code = error?["code"]?.stringValue ?? error?["type"]?.stringValue ?? fallbackCode
        return .error(code: code, message: error?["message"]?.stringValue ?? "", fatal: false)
    }

    private mutating func rememberFunctionName(_ item: [String: JSONValue]?) {
        guard let item, item["type"]?.stringValue == "function_call",
            let callID = item["call_id"]?.stringValue, let name = item["name"]?.stringValue
        else { return }
        if functionNames[callID] == nil, functionNames.count >= Self.functionNameLimit { functionNames.removeAll() }
        functionNames[callID] = name
    }

    /// A transcript event; a delta without text is none, a final one is reported even empty
    /// (its arrival is what is timed, whatever its text: docs/metrics.md, "Transcripts: the
    /// final after speech ends").
    private static func transcript(role: String, text: String?, isFinal: Bool) -> [NormalizedEvent] {
        guard let text else { return isFinal ? [.transcript(role: role, text: "", isFinal: true)] : [] }
        return [.transcript(role: role, text: text, isFinal: isFinal)]
    }

    private static func event(_ type: String) -> WireFrame {
        .text(JSONFrame.text(["type": .string(type)]))
    }
}
