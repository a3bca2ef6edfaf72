import Foundation
import WSCore

/// One simulated Twilio call: the per-connection counters Twilio puts on every message it
/// sends (docs/dialects.md, "Twilio Media Streams — `twilio-media-streams`") —
/// `sequenceNumber` (none on `connected`, 1 on `start`, +1 on every later message), the
/// `media` chunk number (from 1) and timestamp (stream milliseconds of the chunk's first
/// sample) — all sent as strings. A number is taken when its message is built, and every
/// message is built when it is sent (the `mark` echo too), so the numbers follow wire order.
struct TwilioMediaStreamsClientCodec: ClientCodec {
    typealias Name = TwilioEventName

    let identity: TwilioCallIdentity
    /// `start.customParameters`, from the scenario's parameters.
    let customParameters: [String: JSONValue]
    let format = AudioFormat.mulaw8k
    /// The sequence, chunk and timestamp counters, and the messages that carry them.
    private var counters: MediaStreamCounters
    /// The sequence number of the next message.
    var nextSequenceNumber: Int { counters.nextSequenceNumber }

    init(identity: TwilioCallIdentity, parameters: [String: JSONValue]) {
        self.identity = identity
        self.customParameters = Self.customParameters(from: parameters)
        let style = MediaStreamCounters.Style(
            sequenceKey: "sequenceNumber",
            streamIDKey: "streamSid",
            countersAsStrings: true,
            mediaHasTrack: true
        )
        self.counters = MediaStreamCounters(style: style, format: format, streamID: identity.streamSid, firstSequenceNumber: 1)
    }

    /// `customParameters` for `start`: `parameters["custom_parameters"]` (an object), with
    /// `parameters["token"]` (a string) added as `token` unless it names one already.
    static func customParameters(from parameters: [String: JSONValue]) -> [String: JSONValue] {
        var custom: [String: JSONValue] = [:]
        if case .object(let given)? = parameters["custom_parameters"] { custom = given }
        if case .string(let token)? = parameters["token"], custom["token"] == nil { custom["token"] = .string(token) }
        return custom
    }

    /// `connected`, then `start` (sequence number 1).
    mutating func framesOnOpen() -> [WireFrame] {
        [connectedFrame(), startFrame(customParameters: customParameters)]
    }

    mutating func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        EncodedFrame(counters.mediaFrame(base64: audio.base64 ?? "", byteCount: audio.byteCount))
    }

    /// `start` → `start` (custom parameters read like the scenario's), audio → `media`,
    /// `markPlayed` → `mark`, `dtmf` → `dtmf`, `stop` → `stop`; Twilio has no message for the other intents.
    mutating func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .start(let parameters):
            return [startFrame(customParameters: Self.customParameters(from: parameters))]
        case .audio(let bytes):
            return [counters.mediaFrame(base64: Data(bytes).base64EncodedString(), byteCount: bytes.count)]
        case .markPlayed(let name):
            return [markFrame(name: name)]
        case .stop:
            let stop: [String: JSONValue] = ["accountSid": JSONValue(identity.accountSid), "callSid": JSONValue(identity.callSid)]
            return [counters.messageFrame(Name.stop, extra: ["stop": JSONValue(stop)])]
        case .dtmf(let digit):
            return [counters.messageFrame(Name.dtmf, extra: ["dtmf": ["track": "inbound_track", "digit": JSONValue(digit)]])]
        case .interrupt, .text, .commit, .keepAlive, .toolResult, .playbackTruncated, .configure:
            return []
        }
    }

    /// `media` → agent audio (µ-law 8 kHz); `mark` → a mark event and its echo, sent once the
    /// audio received before it has played; `clear` → barge-in acknowledged.
    mutating func receive(_ frame: WireFrame) -> DecodedFrame {
        let message: MediaStreamMessage
        switch MediaStreamMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        switch message.event {
        case Name.media:
            return message.agentAudio(format: format)
        case Name.mark:
            guard let name = message.markName() else { return [.malformed(reason: "mark message without a string name")] }
            // Built when it is sent: its sequence number is its place among the media messages.
            return DecodedFrame(events: [.mark(name: name)], replies: [CodecReply(sending: .markPlayed(name: name), timing: .whenPlayedOut)])
        case Name.clear:
            return [.agentInterrupted]
        default:
            return [.unknown(type: message.event)]
        }
    }

    private func connectedFrame() -> WireFrame {
        .text(JSONFrame.text(["event": JSONValue(Name.connected), "protocol": "Call", "version": "1.0.0"]))
    }

    private mutating func startFrame(customParameters: [String: JSONValue]) -> WireFrame {
        let start: [String: JSONValue] = [
            "streamSid": JSONValue(identity.streamSid), "accountSid": JSONValue(identity.accountSid),
            "callSid": JSONValue(identity.callSid),
            "tracks": ["inbound"],
            "customParameters": .object(customParameters),
            "mediaFormat": ["encoding": "audio/x-mulaw", "sampleRate": JSONValue(format.sampleRateHz), "channels": 1],
        ]
        return counters.messageFrame(Name.start, extra: ["start": JSONValue(start)])
    }

    private mutating func markFrame(name: String) -> WireFrame {
        counters.messageFrame(Name.mark, extra: ["mark": ["name": JSONValue(name)]])
    }
}
