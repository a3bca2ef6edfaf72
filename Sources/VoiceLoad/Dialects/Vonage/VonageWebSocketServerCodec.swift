import Foundation
import WSCore

/// The agent side of one Vonage call: binary frames are audio both ways; the agent labels each
/// turn's end with a `notify` and answers barge-in with `clear`, as Pipecat's serializer does.
struct VonageWebSocketServerCodec: ServerCodec {
    typealias Message = VonageWebSocketMessage

    /// Binary → audio (empty → nothing); `websocket:connected` → `start` with its headers as the
    /// parameters, `websocket:dtmf` → the digit, `websocket:notify` → `markPlayed`,
    /// `websocket:cleared` → nothing. Throws `.unknownType` for other events and `.malformed`
    /// for text that is not a Vonage message.
    func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        if case .binary(let bytes) = frame { return bytes.isEmpty ? [] : [.audio(bytes)] }
        let message: MediaStreamMessage
        switch MediaStreamMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): throw .malformed(error.reason)
        }
        switch message.event {
        case Message.connected:
            var headers = message.object
            headers["event"] = nil
            headers["content-type"] = nil
            return [.start(parameters: headers)]
        case Message.dtmf:
            let digit = message.object["digit"] ?? (message.object["dtmf"]?.objectValue)?["digit"]
            switch digit {
            case .string(let text)?: return [.dtmf(digit: text)]
            case .integer(let number)?: return [.dtmf(digit: String(number))]
            case .number(let number)?: return [.dtmf(digit: JSONText.number(number))]
            default: throw .malformed("websocket:dtmf message without a digit")
            }
        case Message.notified:
            guard let label = Message.label(payload: message.object["payload"]) else {
                throw .malformed("websocket:notify without a payload")
            }
            return [.markPlayed(name: label)]
        case Message.cleared:
            return []
        default:
            throw .unknownType(message.event)
        }
    }

    /// Audio → a binary frame, `turnComplete` → `notify` with the turn key, `interrupted` →
    /// `clear`; Vonage has no message for anything else.
    func frames(for output: AgentOutput) -> [WireFrame] {
        switch output {
        case .audio(let bytes):
            return [.binary(bytes)]
        case .turnComplete(let turnKey):
            return [.text(JSONFrame.text(["action": JSONValue(Message.notify), "payload": ["turn": JSONValue(turnKey)]]))]
        case .interrupted:
            return [.text(JSONFrame.text(["action": JSONValue(Message.clear)]))]
        case .connectionOpened, .userTurnResumed, .sessionStarted, .ready, .userSpeechStarted, .userSpeechStopped, .agentTurnStarted,
            .agentAudioDone, .responseCancelled, .toolCall, .transcript, .speechResult, .utteranceEnd, .error, .ended:
            return []
        }
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }
}
