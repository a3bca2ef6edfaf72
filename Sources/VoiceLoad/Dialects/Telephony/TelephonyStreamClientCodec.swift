import Foundation
import WSCore

/// One simulated Telnyx, Plivo or Exotel call (docs/telephony.md): the provider's handshake on
/// open, then its `media` messages with their per-connection counters — the sequence number
/// (one per message), the chunk number (from 1) and the stream timestamp in milliseconds.
struct TelephonyStreamClientCodec: ClientCodec {
    let provider: TelephonyProvider
    let call: TelephonyCall
    /// Exotel `start.custom_parameters` (the scenario's `custom_parameters` and `token`).
    let customParameters: [String: JSONValue]
    /// Telnyx `start.client_state`, when the scenario gives one.
    let clientState: String?
    /// The sequence, chunk and timestamp counters, and the messages that carry them.
    private var counters: MediaStreamCounters

    init(provider: TelephonyProvider, call: TelephonyCall, parameters: [String: JSONValue]) {
        self.provider = provider
        self.call = call
        self.customParameters = TwilioMediaStreamsClientCodec.customParameters(from: parameters)
        if case .string(let state)? = parameters["client_state"] { clientState = state } else { clientState = nil }
        let style = MediaStreamCounters.Style(
            sequenceKey: provider.sequenceKey,
            streamIDKey: provider.streamIDKey,
            countersAsStrings: provider == .telnyx,
            mediaHasTrack: provider != .exotel
        )
        self.counters = MediaStreamCounters(
            style: style,
            format: provider.format,
            streamID: call.streamID,
            firstSequenceNumber: provider.firstSequenceNumber
        )
    }

    /// Telnyx and Exotel: `connected`, then `start`; Plivo: `start` alone.
    mutating func framesOnOpen() -> [WireFrame] {
        switch provider {
        case .telnyx: return [.text(#"{"event":"connected","version":"1.0.0"}"#), startFrame()]
        case .exotel: return [.text(#"{"event":"connected"}"#), startFrame()]
        case .plivo: return [startFrame()]
        }
    }

    mutating func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        EncodedFrame(counters.mediaFrame(base64: audio.base64 ?? "", byteCount: audio.byteCount))
    }

    /// Audio → `media`, `dtmf` → `dtmf`, `markPlayed` → the provider's played-label message,
    /// `stop` → `stop`; these providers have no message for the other intents.
    mutating func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .audio(let bytes):
            return [counters.mediaFrame(base64: Data(bytes).base64EncodedString(), byteCount: bytes.count)]
        case .dtmf(let digit):
            let dtmf: [String: JSONValue] =
                provider == .exotel
                ? ["digit": JSONValue(digit), "duration": "100"]
                : provider == .plivo ? ["digit": JSONValue(digit), "track": "inbound"] : ["digit": JSONValue(digit)]
            return [counters.messageFrame("dtmf", extra: ["dtmf": JSONValue(dtmf)])]
        case .markPlayed(let name):
            return [labelPlayedFrame(name: name)]
        case .stop:
            return [counters.messageFrame("stop", extra: ["stop": JSONValue(stopBody())])]
        case .start, .interrupt, .text, .commit, .keepAlive, .toolResult, .playbackTruncated, .configure:
            return []
        }
    }

    /// The agent's audio (`media`, Plivo `playAudio`) → agent audio; its label (`mark`, Plivo
    /// `checkpoint`) → a mark event and the provider's confirmation once the audio before it has
    /// played; its barge-in (`clear`, Plivo `clearAudio`) → barge-in acknowledged (Plivo answers
    /// `clearedAudio`).
    mutating func receive(_ frame: WireFrame) -> DecodedFrame {
        let message: MediaStreamMessage
        switch MediaStreamMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        switch message.event {
        case provider.agentAudioEvent:
            return message.agentAudio(format: provider.format)
        case provider.agentLabelEvent:
            let name = provider == .plivo ? message.object["name"]?.stringValue : message.markName()
            guard let name else { return [.malformed(reason: "\(message.event) message without a string name")] }
            // Built when it is sent: its sequence number is its place among the media messages.
            return DecodedFrame(events: [.mark(name: name)], replies: [CodecReply(sending: .markPlayed(name: name), timing: .whenPlayedOut)])
        case provider.agentClearEvent:
            guard provider == .plivo else { return [.agentInterrupted] }
            return DecodedFrame(events: [.agentInterrupted], replies: [CodecReply(counters.messageFrame("clearedAudio", extra: [:]))])
        default:
            return [.unknown(type: message.event)]
        }
    }

    private mutating func startFrame() -> WireFrame {
        var object: [String: JSONValue] = ["start": JSONValue(startBody())]
        if provider == .plivo { object["extra_headers"] = "{}" }
        return counters.messageFrame("start", extra: object)
    }

    /// What `start` carries: what Pipecat's `parse_telephony_websocket` looks for (Telnyx
    /// `call_control_id` and `media_format.encoding`, Plivo `streamId` and `callId`, Exotel
    /// `stream_sid`, `call_sid` and `account_sid`) and what the provider documents besides.
    private func startBody() -> [String: JSONValue] {
        switch provider {
        case .telnyx:
            var start: [String: JSONValue] = [
                "user_id": JSONValue(call.accountID), "call_control_id": JSONValue(call.callID), "from": JSONValue(call.from),
                "to": JSONValue(call.to),
                "media_format": ["encoding": "PCMU", "sample_rate": JSONValue(provider.format.sampleRateHz), "channels": 1],
            ]
            if let clientState { start["client_state"] = .string(clientState) }
            return start
        case .plivo:
            return [
                "callId": JSONValue(call.callID), "streamId": JSONValue(call.streamID), "accountId": JSONValue(call.accountID),
                "tracks": ["inbound"],
                "mediaFormat": ["encoding": "audio/x-mulaw", "sampleRate": JSONValue(provider.format.sampleRateHz)],
            ]
        case .exotel:
            return [
                "stream_sid": JSONValue(call.streamID), "call_sid": JSONValue(call.callID), "account_sid": JSONValue(call.accountID),
                "from": JSONValue(call.from), "to": JSONValue(call.to),
                "custom_parameters": .object(customParameters),
                "media_format": [
                    "encoding": "base64", "sample_rate": JSONValue(String(provider.format.sampleRateHz)), "bit_rate": "128kbps",
                ],
            ]
        }
    }

    private func stopBody() -> [String: JSONValue] {
        switch provider {
        case .telnyx: return ["user_id": .string(call.accountID), "call_control_id": .string(call.callID)]
        case .plivo: return ["callId": .string(call.callID)]
        case .exotel: return ["call_sid": .string(call.callID), "account_sid": .string(call.accountID), "reason": "callended"]
        }
    }

    /// The provider's confirmation that label `name` has played: `mark` (Telnyx, Exotel) or
    /// Plivo's `playedStream`.
    private mutating func labelPlayedFrame(name: String) -> WireFrame {
        provider == .plivo
            ? counters.messageFrame(provider.labelPlayedEvent, extra: ["name": JSONValue(name)])
            : counters.messageFrame(provider.labelPlayedEvent, extra: ["mark": ["name": JSONValue(name)]])
    }
}
