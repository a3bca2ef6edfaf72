import Foundation
import WSCore

/// One Deepgram JSON message, `{"type": <string>, …}` (docs/dialects.md), as parsed
/// from a frame. Shared by both Deepgram dialects and by their client and server sides.
///
/// Deepgram puts every field next to `type` (there is no payload wrapper), so the members are
/// kept as `JSONValue`s: the messages are small and rare next to audio, which always travels
/// in binary frames and never comes here.
struct DeepgramMessage {
    /// The `type` discriminator.
    var type: String
    /// Every member of the object, `type` included.
    var members: [String: JSONValue]

    /// The message in `frame` (JSON text, or UTF-8 JSON in a binary frame), or why the frame
    /// is not a Deepgram message.
    static func parse(_ frame: WireFrame) -> Result<DeepgramMessage, JSONFrameError> {
        let type: String
        let object: [String: JSONValue]
        switch JSONFrame.typedObject(in: frame) {
        case .success(let message): (type, object) = message
        case .failure(let error): return .failure(error)
        }
        return .success(DeepgramMessage(type: type, members: object))
    }

    /// The message a server codec received in the text frame `frame`: one that is not a
    /// Deepgram message is malformed.
    static func received(_ frame: WireFrame) throws(DialectDecodingError) -> DeepgramMessage {
        switch parse(frame) {
        case .success(let message): return message
        case .failure(let error): throw .malformed(error.reason)
        }
    }

    /// The string member `key`, if there is one.
    func string(_ key: String) -> String? {
        if case .string(let value)? = members[key] { return value }
        return nil
    }

    /// The number member `key`, if there is one (booleans are not numbers).
    func number(_ key: String) -> Double? {
        members[key]?.doubleValue
    }

    /// The boolean member `key`, if there is one.
    func bool(_ key: String) -> Bool? {
        if case .bool(let value)? = members[key] { return value }
        return nil
    }

    /// Compact JSON text of a message of `type` with `members`. Numbers JSON
    /// cannot carry (NaN, infinity) are written as null; `seconds(_:)` guards them.
    static func text(type: String, _ members: [String: JSONValue] = [:]) -> String {
        var object = members
        object["type"] = .string(type)
        return JSONFrame.text(object)
    }

    /// The longest time a Deepgram message may give, in seconds: one day. A latency or audio
    /// position outside 0…`maxSeconds` is not believed (it would overflow the client's clock
    /// arithmetic): the message is malformed.
    static let maxSeconds = 86_400.0

    /// `value` rounded to the millisecond, and 0 when it is not finite: Deepgram's audio
    /// positions and latencies are seconds with millisecond precision.
    static func seconds(_ value: Double) -> Double {
        value.isFinite ? (value * 1_000).rounded() / 1_000 : 0
    }

    /// Deepgram's name for a sample encoding (`encoding=linear16`, `"encoding":"mulaw"`).
    static func encodingName(of format: AudioFormat) -> String {
        switch format.encoding {
        case .pcm16: return "linear16"
        case .mulaw: return "mulaw"
        case .alaw: return "alaw"
        }
    }

    /// The control messages that have no fields, exactly as docs/dialects.md show them.
    enum Literal {
        static let keepAlive = #"{"type":"KeepAlive"}"#
        static let finalize = #"{"type":"Finalize"}"#
        static let closeStream = #"{"type":"CloseStream"}"#
    }

    /// The wire names of the message types (docs/dialects.md).
    enum Name {
        // Both dialects, client → server.
        static let keepAlive = "KeepAlive"
        // Speech-to-text, client → server.
        static let finalize = "Finalize"
        static let closeStream = "CloseStream"
        // Speech-to-text, server → client.
        static let results = "Results"
        static let speechStarted = "SpeechStarted"
        static let utteranceEnd = "UtteranceEnd"
        static let metadata = "Metadata"
        static let configureSuccess = "ConfigureSuccess"
        static let configureFailure = "ConfigureFailure"
        // Voice agent, client → server.
        static let settings = "Settings"
        static let injectUserMessage = "InjectUserMessage"
        static let functionCallResponse = "FunctionCallResponse"
        // Voice agent, server → client.
        static let welcome = "Welcome"
        static let settingsApplied = "SettingsApplied"
        static let conversationText = "ConversationText"
        static let userStartedSpeaking = "UserStartedSpeaking"
        static let agentThinking = "AgentThinking"
        static let functionCallRequest = "FunctionCallRequest"
        static let agentStartedSpeaking = "AgentStartedSpeaking"
        static let agentAudioDone = "AgentAudioDone"
        static let latencyReport = "LatencyReport"
        static let promptUpdated = "PromptUpdated"
        static let speakUpdated = "SpeakUpdated"
        static let error = "Error"
        static let warning = "Warning"
        static let functionCallCancelled = "FunctionCallCancelled"
        /// Server messages that change nothing vload measures: known, so not counted as
        /// unknown. The conformance suite feeds every server message of the deepgram-sdk's
        /// agent v1 models through the codec (docs/conformance.md).
        static let informational: Set<String> = [
            agentThinking, promptUpdated, speakUpdated, functionCallResponse, "ThinkUpdated", "ListenUpdated",
            "ThinkLiveUpdated", "History", "InjectionRefused", "FrustrationDetected", "__customFromThinkProvider",
        ]
        /// Every agent server message type the client codec reads by name.
        static let agentTypesRead: [String] =
            [
                welcome, settingsApplied, conversationText, userStartedSpeaking, functionCallRequest, agentStartedSpeaking,
                agentAudioDone, latencyReport, error, warning, functionCallCancelled,
            ] + informational.sorted()
        /// Every listen server message type the speech-to-text client codec reads by name.
        static let listenTypesRead = [results, speechStarted, utteranceEnd, metadata, error, configureSuccess, configureFailure]
    }
}
