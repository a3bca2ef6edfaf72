import Foundation
import WSCore

/// One Smallest.ai Atoms message as parsed from a frame: a flat JSON object with a `type`
/// discriminator (docs/dialects.md). Shared by the client and the server side of the dialect.
struct SmallestAtomsMessage {
    /// The `type` discriminator.
    var type: String
    /// The whole object, `type` included.
    var object: [String: JSONValue]

    /// The message in `frame` (JSON in a text or a binary frame), or why the frame is not one.
    static func parse(_ frame: WireFrame) -> Result<SmallestAtomsMessage, JSONFrameError> {
        let type: String
        let object: [String: JSONValue]
        switch JSONFrame.typedObject(in: frame) {
        case .success(let message): (type, object) = message
        case .failure(let error): return .failure(error)
        }
        return .success(SmallestAtomsMessage(type: type, object: object))
    }

    /// The string member `key`, if there is one.
    func string(_ key: String) -> String? {
        object[key]?.stringValue
    }

    /// The member `key` as text: a string as is, a number in its shortest decimal form
    /// (`error.code` is documented both as `"401"` and as a word).
    func text(_ key: String) -> String? {
        switch object[key] {
        case .string(let string)?: return string
        case .integer(let integer)?: return String(integer)
        case .number(let value)?:
            if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        default: return nil
        }
    }

    /// The JSON text of a message carrying base64 `audio` (`input_audio_buffer.append`,
    /// `output_audio.delta`), built by concatenation: the audio hot path never serializes JSON.
    static func audioText(type: String, base64: String) -> String {
        #"{"type":""# + type + #"","audio":""# + base64 + #""}"#
    }

    /// The transcript role as vload reports it: `assistant` for the agent (older docs said
    /// `agent`), `user` for the user, anything else unchanged.
    static func normalizedRole(_ role: String) -> String {
        role == "agent" ? "assistant" : role
    }

    /// The wire names of the message types (docs/dialects.md).
    enum Name {
        // Client → server.
        static let append = "input_audio_buffer.append"
        static let commit = "input_audio_buffer.commit"
        static let textSend = "input_text.send"
        static let sessionUpdate = "session.update"
        static let sessionClose = "session.close"
        // Server → client.
        static let sessionCreated = "session.created"
        static let audioDelta = "output_audio.delta"
        static let agentStartTalking = "agent_start_talking"
        static let agentStopTalking = "agent_stop_talking"
        static let interruption = "interruption"
        static let transcriptDelta = "transcript.delta"
        static let transcript = "transcript"
        static let sessionClosed = "session.closed"
        static let error = "error"
    }
}
