import Foundation

/// The server side of one OpenAI Realtime connection. It keeps the ids the protocol threads
/// through its events: the session, the user's speech item, the current response and its
/// audio item (every `response.output_audio.delta` names both), and the function calls it
/// announced (so a `function_call_output` can be traced back to its tool).
struct OpenAIRealtimeServerCodec: ServerCodec {
    typealias Name = OpenAIRealtimeEventName

    let inputFormat: AudioFormat
    let outputFormat: AudioFormat
    private(set) var sessionID = "sess_vload"
    /// The effective session configuration: the defaults with every `session.update` applied.
    private(set) var session: [String: JSONValue]
    private var userItemCount = 0
    private var userItemID: String?
    private var lastItemID: String?
    private(set) var responseID: String?
    private var audioItemID: String?
    /// `response.output_audio.delta` up to the opening quote of `delta`, for the current response.
    private var deltaPrefix: String
    private var callCount = 0
    var functionNames: [String: String] = [:]

    init(inputFormat: AudioFormat, outputFormat: AudioFormat) {
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.session = OpenAIRealtimeSession.defaults(inputFormat: inputFormat, outputFormat: outputFormat)
        self.deltaPrefix = Self.deltaPrefix(responseID: "", itemID: "")
    }

    /// The audio delta for one prepared chunk, tagged with the current response.
    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        if let base64 = audio.base64 { return EncodedFrame(.text(deltaPrefix + base64 + #""}"#)) }
        return audio.sharedFrame ?? EncodedFrame(.text(""))
    }

    /// `connectionOpened` → `session.created`; `ready` → `session.updated`; VAD →
    /// `input_audio_buffer.speech_started`, `speech_stopped` + `committed`; `agentTurnStarted`
    /// → `response.created`; audio → `response.output_audio.delta`; `agentAudioDone` →
    /// `response.output_audio.done`; `turnComplete` → `response.done` completed;
    /// `responseCancelled` → `response.done` cancelled (turn_detected); `toolCall` →
    /// `response.function_call_arguments.done` (its id as `call_id`, else `call_N`; its
    /// arguments, else `{}`); transcripts → the input transcription or output
    /// audio transcript events; `error` → `error` (its code in `error.code`). The rest has no OpenAI event (`interrupted`:
    /// `speech_started` already told the client).
    mutating func frames(for output: AgentOutput) -> [WireFrame] {
        switch output {
        case .connectionOpened(let sessionID):
            self.sessionID = sessionID
            return [Self.frame(["type": Name.sessionCreated, "session": sessionObject()])]
        case .ready:
            return [Self.frame(["type": Name.sessionUpdated, "session": sessionObject()])]
        case .userSpeechStarted(let audioMs):
            userItemCount += 1
            let itemID = "item_user_\(userItemCount)"
            userItemID = itemID
            return [Self.frame(["type": Name.speechStarted, "audio_start_ms": audioMs, "item_id": itemID])]
        case .userSpeechStopped(let audioMs):
            let itemID = userItemID ?? "item_user_\(userItemCount)"
            userItemID = nil
            let previous: Any = lastItemID.map { $0 as Any } ?? NSNull()
            lastItemID = itemID
            return [
                Self.frame(["type": Name.speechStopped, "audio_end_ms": audioMs, "item_id": itemID]),
                Self.frame(["type": Name.inputAudioCommitted, "item_id": itemID, "previous_item_id": previous]),
            ]
        case .agentTurnStarted(let turnKey, _):
            let itemID = "item_\(turnKey)"
            responseID = turnKey
            audioItemID = itemID
            lastItemID = itemID
            deltaPrefix = Self.deltaPrefix(responseID: turnKey, itemID: itemID)
            return [Self.frame(["type": Name.responseCreated, "response": Self.response(turnKey, status: "in_progress")])]
        case .audio(let bytes):
            return [.text(deltaPrefix + Data(bytes).base64EncodedString() + #""}"#)]
        case .agentAudioDone(let turnKey):
            return [
                Self.frame([
                    "type": Name.outputAudioDone, "response_id": turnKey, "item_id": itemID(of: turnKey),
                    "output_index": 0, "content_index": 0,
                ])
            ]
        case .turnComplete(let turnKey):
            return [Self.frame(["type": Name.responseDone, "response": Self.response(turnKey, status: "completed")])]
        case .responseCancelled(let turnKey):
            let details: [String: Any] = ["type": "cancelled", "reason": "turn_detected"]
            return [
                Self.frame([
                    "type": Name.responseDone, "response": Self.response(turnKey, status: "cancelled", details: details),
                ])
            ]
        case .toolCall(let name, _, let id, let arguments):
            callCount += 1
            let callID = id ?? "call_\(callCount)"
            functionNames[callID] = name
            return [
                Self.frame([
                    "type": Name.functionArgumentsDone, "response_id": responseID ?? "", "item_id": "item_\(callID)",
                    "output_index": 0, "call_id": callID, "name": name, "arguments": arguments ?? "{}",
                ])
            ]
        case .transcript(let line):
            return [transcriptFrame(line)]
        case .error(let code, let message):
            let error: [String: Any] = ["type": "server_error", "code": code.map { $0 as Any } ?? NSNull(), "message": message]
            return [Self.frame(["type": Name.error, "error": error])]
        case .sessionStarted, .interrupted, .speechResult, .utteranceEnd, .ended:
            return []
        }
    }

    /// A user line is an input transcription (delta, or completed when final) of the current
    /// user item; an agent line an output audio transcript (delta, or done) of the response.
    private func transcriptFrame(_ line: TranscriptLine) -> WireFrame {
        if line.role == "user" {
            let itemID = userItemID ?? lastItemID ?? "item_user_\(userItemCount)"
            return line.isFinal
                ? Self.frame([
                    "type": Name.inputTranscriptionCompleted, "item_id": itemID, "content_index": 0,
                    "transcript": line.text,
                ])
                : Self.frame([
                    "type": Name.inputTranscriptionDelta, "item_id": itemID, "content_index": 0,
                    "delta": line.text,
                ])
        }
        var event: [String: Any] = [
            "response_id": responseID ?? "", "item_id": audioItemID ?? "", "output_index": 0, "content_index": 0,
        ]
        if line.isFinal {
            event["type"] = Name.outputAudioTranscriptDone
            event["transcript"] = line.text
        } else {
            event["type"] = Name.outputAudioTranscriptDelta
            event["delta"] = line.text
        }
        return Self.frame(event)
    }

    /// The session as `session.created` and `session.updated` report it.
    private func sessionObject() -> Any {
        var object = session
        object["id"] = .string(sessionID)
        object["object"] = .string("realtime.session")
        if object["model"] == nil { object["model"] = .string(OpenAIRealtimeClientDialect.defaultModel) }
        return JSONValue.object(object).replacingNonFiniteNumbers().foundationObject
    }

    /// Applies a client's `session.update` (the members it names; the audio formats stay the
    /// server's own).
    mutating func apply(sessionUpdate: [String: JSONValue]) {
        session = OpenAIRealtimeSession.update(
            scenarioSession: OpenAIRealtimeSession.merging(session, with: sessionUpdate),
            inputFormat: inputFormat,
            outputFormat: outputFormat
        )
    }

    private func itemID(of turnKey: String) -> String {
        turnKey == responseID ? (audioItemID ?? "item_\(turnKey)") : "item_\(turnKey)"
    }

    private static func response(_ id: String, status: String, details: [String: Any]? = nil) -> [String: Any] {
        [
            "id": id, "object": "realtime.response", "status": status,
            "status_details": details ?? NSNull(), "output": [Any](),
        ]
    }

    private static func deltaPrefix(responseID: String, itemID: String) -> String {
        #"{"type":"response.output_audio.delta","response_id":"# + JSONText.quoted(responseID)
            + #","item_id":"# + JSONText.quoted(itemID) + #","output_index":0,"content_index":0,"delta":""#
    }

    private static func frame(_ object: [String: Any]) -> WireFrame {
        .text(JSONFrame.text(object))
    }
}
