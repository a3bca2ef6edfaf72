import Foundation
import WSCore

/// One simulated Vonage call (docs/telephony.md): `websocket:connected` on open, then binary
/// frames of 16-bit PCM; the agent's binary frames are its audio, its `clear` is barge-in
/// (answered with `websocket:cleared`), its `notify` a playback label (echoed as
/// `websocket:notify` once the audio before it has played).
struct VonageWebSocketClientCodec: ClientCodec {
    typealias Message = VonageWebSocketMessage

    let format: AudioFormat
    /// The endpoint's `headers`, which Vonage puts at the top level of `websocket:connected`.
    let headers: [String: JSONValue]

    init(format: AudioFormat, parameters: [String: JSONValue]) {
        self.format = format
        self.headers = TwilioMediaStreamsClientCodec.customParameters(from: parameters)
    }

    /// `websocket:connected` with the content type and the headers.
    func framesOnOpen() -> [WireFrame] {
        var connected = headers
        connected["event"] = .string(Message.connected)
        connected["content-type"] = .string(Message.contentType(format))
        return [.text(JSONFrame.text(connected))]
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// Audio → a binary frame, `dtmf` → `websocket:dtmf`, `markPlayed` → `websocket:notify`;
    /// Vonage hangs up by closing the socket, so `stop` sends nothing, and it has no message for
    /// the other intents.
    func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .audio(let bytes):
            return bytes.isEmpty ? [] : [.binary(bytes)]
        case .dtmf(let digit):
            return [.text(JSONFrame.text(["event": JSONValue(Message.dtmf), "digit": JSONValue(digit), "duration": 100]))]
        case .markPlayed(let label):
            return [notifiedFrame(label: label)]
        case .start, .interrupt, .text, .commit, .keepAlive, .toolResult, .playbackTruncated, .stop, .configure:
            return []
        }
    }

    /// Binary → agent audio; `clear` → barge-in acknowledged and `websocket:cleared`; `notify` →
    /// a mark event (its payload's JSON text) and its echo once played.
    func receive(_ frame: WireFrame) -> DecodedFrame {
        if case .binary(let bytes) = frame {
            return DecodedFrame(events: bytes.isEmpty ? [] : [.agentAudio(AgentAudioChunk(audio: bytes, format: format))])
        }
        let message: MediaStreamMessage
        switch MediaStreamMessage.parse(frame, discriminator: "action") {
        case .success(let parsed): message = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        switch message.event {
        case Message.clear:
            return DecodedFrame(
                events: [.agentInterrupted],
                replies: [CodecReply(.text(JSONFrame.text(["event": JSONValue(Message.cleared)])))]
            )
        case Message.notify:
            guard let label = Message.label(payload: message.object["payload"]) else {
                return [.malformed(reason: "notify message without a payload")]
            }
            return DecodedFrame(events: [.mark(name: label)], replies: [CodecReply(notifiedFrame(label: label), timing: .whenPlayedOut)])
        default:
            return [.unknown(type: message.event)]
        }
    }

    private func notifiedFrame(label: String) -> WireFrame {
        .text(JSONFrame.text(["event": JSONValue(Message.notified), "payload": Message.payload(label: label)]))
    }
}
