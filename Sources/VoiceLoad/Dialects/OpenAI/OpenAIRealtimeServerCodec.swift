import Foundation
import WSCore

/// The server side of one OpenAI Realtime connection. It keeps the ids the protocol threads
/// through its events: the session, the user's speech item, the current response and its
/// audio item (every `response.output_audio.delta` names both), and the function calls it
/// announced (so a `function_call_output` can be traced back to its tool).
struct OpenAIRealtimeServerCodec: ServerCodec {
    typealias Name = OpenAIRealtimeEventName

    let inputFormat: AudioFormat
    let outputFormat: AudioFormat
    /// Whose event names and session object: OpenAI's GA, or Azure Voice Live's.
    let profile: OpenAIRealtimeProfile
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

    init(inputFormat: AudioFormat, outputFormat: AudioFormat, profile: OpenAIRealtimeProfile = .openAI) {
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.profile = profile
        self.session = profile.sessionUpdate(parameters: [:], inputFormat: inputFormat, outputFormat: outputFormat)
        self.deltaPrefix = Self.deltaPrefix(type: profile.audioDelta, responseID: "", itemID: "")
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
            return [Self.frame(["type": .string(Name.sessionCreated), "session": sessionObject()])]
        case .ready:
            return [Self.frame(["type": .string(Name.sessionUpdated), "session": sessionObject()])]
        case .userSpeechStarted(let audioMs):
            userItemCount += 1
            let itemID = "item_user_\(userItemCount)"
            userItemID = itemID
            return [Self.frame(["type": .string(Name.speechStarted), "audio_start_ms": .int(audioMs), "item_id": .string(itemID)])]
        case .userSpeechStopped(let audioMs):
            let itemID = userItemID ?? "item_user_\(userItemCount)"
            userItemID = nil
            let previous = JSONValue.string(lastItemID)
            lastItemID = itemID
            return [
                Self.frame(["type": .string(Name.speechStopped), "audio_end_ms": .int(audioMs), "item_id": .string(itemID)]),
                Self.frame(["type": .string(Name.inputAudioCommitted), "item_id": .string(itemID), "previous_item_id": previous]),
            ]
        case .agentTurnStarted(let turnKey, _):
            let itemID = "item_\(turnKey)"
            responseID = turnKey
            audioItemID = itemID
            lastItemID = itemID
            deltaPrefix = Self.deltaPrefix(type: profile.audioDelta, responseID: turnKey, itemID: itemID)
            return [
                Self.frame(["type": .string(Name.responseCreated), "response": .object(Self.response(turnKey, status: "in_progress"))])
            ]
        case .audio(let bytes):
            return [.text(deltaPrefix + Data(bytes).base64EncodedString() + #""}"#)]
        case .agentAudioDone(let turnKey):
            return [
                Self.frame([
                    "type": .string(profile.audioDone), "response_id": .string(turnKey), "item_id": .string(itemID(of: turnKey)),
                    "output_index": 0, "content_index": 0,
                ])
            ]
        case .turnComplete(let turnKey):
            return [Self.frame(["type": .string(Name.responseDone), "response": .object(Self.response(turnKey, status: "completed"))])]
        case .responseCancelled(let turnKey):
            let details: [String: JSONValue] = ["type": "cancelled", "reason": "turn_detected"]
            return [
                Self.frame([
                    "type": .string(Name.responseDone), "response": .object(Self.response(turnKey, status: "cancelled", details: details)),
                ])
            ]
        case .toolCall(let name, _, let id, let arguments):
            callCount += 1
            let callID = id ?? "call_\(callCount)"
            functionNames[callID] = name
            return [
                Self.frame([
                    "type": .string(Name.functionArgumentsDone), "response_id": .string(responseID ?? ""),
                    "item_id": .string("item_\(callID)"),
                    "output_index": 0, "call_id": .string(callID), "name": .string(name), "arguments": .string(arguments ?? "{}"),
                ])
            ]
        case .transcript(let line):
            return [transcriptFrame(line)]
        case .error(let code, let message):
            let error: [String: JSONValue] = ["type": "server_error", "code": .string(code), "message": .string(message)]
            return [Self.frame(["type": .string(Name.error), "error": .object(error)])]
        case .sessionStarted, .userTurnResumed, .interrupted, .speechResult, .utteranceEnd, .ended:
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
                    "type": .string(Name.inputTranscriptionCompleted), "item_id": .string(itemID), "content_index": 0,
                    "transcript": .string(line.text),
                ])
                : Self.frame([
                    "type": .string(Name.inputTranscriptionDelta), "item_id": .string(itemID), "content_index": 0,
                    "delta": .string(line.text),
                ])
        }
        var event: [String: JSONValue] = [
            "response_id": .string(responseID ?? ""), "item_id": .string(audioItemID ?? ""), "output_index": 0, "content_index": 0,
        ]
        if line.isFinal {
            event["type"] = .string(profile.audioTranscriptDone)
            event["transcript"] = .string(line.text)
        } else {
            event["type"] = .string(profile.audioTranscriptDelta)
            event["delta"] = .string(line.text)
        }
        return Self.frame(event)
    }

    /// The session as `session.created` and `session.updated` report it.
    private func sessionObject() -> JSONValue {
        var object = session
        object["id"] = .string(sessionID)
        object["object"] = .string("realtime.session")
        if object["model"] == nil { object["model"] = .string(OpenAIRealtimeClientDialect.defaultModel) }
        return .object(object)
    }

    /// Applies a client's `session.update` (the members it names; the audio formats stay the
    /// server's own).
    mutating func apply(sessionUpdate: [String: JSONValue]) {
        if profile == .azureVoiceLive {
            session = AzureVoiceLiveSession.update(
                scenarioSession: OpenAIRealtimeSession.merging(session, with: sessionUpdate),
                inputFormat: inputFormat
            )
            return
        }
        session = OpenAIRealtimeSession.update(
            scenarioSession: OpenAIRealtimeSession.merging(session, with: sessionUpdate),
            inputFormat: inputFormat,
            outputFormat: outputFormat
        )
    }

    private func itemID(of turnKey: String) -> String {
        turnKey == responseID ? (audioItemID ?? "item_\(turnKey)") : "item_\(turnKey)"
    }

    private static func response(_ id: String, status: String, details: [String: JSONValue]? = nil) -> [String: JSONValue] {
        [
            "id": .string(id), "object": "realtime.response", "status": .string(status),
            "status_details": details.map(JSONValue.object) ?? .null, "output": [],
        ]
    }

    private static func deltaPrefix(type: String, responseID: String, itemID: String) -> String {
        #"{"type":"# + JSONText.quoted(type) + #","response_id":"# + JSONText.quoted(responseID)
            + #","item_id":"# + JSONText.quoted(itemID) + #","output_index":0,"content_index":0,"delta":""#
    }

    private static func frame(_ object: [String: JSONValue]) -> WireFrame {
        .text(JSONFrame.text(object))
    }
}
