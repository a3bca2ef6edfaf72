import Foundation
import WSCore

/// The agent side of one Telnyx, Plivo or Exotel call: captures the stream id from `start` and
/// puts it on what it sends, in the shapes Pipecat's serializers write.
struct TelephonyStreamServerCodec: ServerCodec {
    let provider: TelephonyProvider
    /// The call's stream id; empty until `start` arrives.
    private(set) var streamID = ""
    /// The agent's audio message up to the opening quote of its payload.
    private var audioPrefix: String

    init(provider: TelephonyProvider) {
        self.provider = provider
        self.audioPrefix = Self.audioPrefix(provider: provider, streamID: "")
    }

    /// `connected` → nothing, `start` → `start` (Exotel `custom_parameters` as the parameters),
    /// `media` → audio (an empty payload → nothing), `dtmf` → the digit, the played-label message
    /// → `markPlayed`, `stop` → `stop`, Plivo `clearedAudio` → nothing. Throws `.unknownType` for
    /// other events and `.malformed` for frames that are not the provider's messages.
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        let message: MediaStreamMessage
        switch MediaStreamMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): throw .malformed(error.reason)
        }
        switch message.event {
        case "connected":
            return []
        case "start":
            return try startIntents(message)
        case "media":
            return try message.callerAudio()
        case "dtmf":
            guard let digit = message.member("dtmf")?["digit"]?.stringValue else { throw .malformed("dtmf message without a string digit") }
            return [.dtmf(digit: digit)]
        case provider.labelPlayedEvent:
            let name = provider == .plivo ? message.object["name"]?.stringValue : message.markName()
            guard let name else { throw .malformed("\(message.event) message without a string name") }
            return [.markPlayed(name: name)]
        case "stop":
            return [.stop]
        case "clearedAudio" where provider == .plivo:
            return []
        default:
            throw .unknownType(message.event)
        }
    }

    /// Audio → the provider's audio message, `turnComplete` → a playback label named after the
    /// turn key, `interrupted` → the clear message; these providers have nothing for the rest.
    func frames(for output: AgentOutput) -> [WireFrame] {
        switch output {
        case .audio(let bytes):
            return [.text(audioPrefix + Data(bytes).base64EncodedString() + #""}}"#)]
        case .turnComplete(let turnKey):
            let label: [String: JSONValue] = provider == .plivo ? ["name": JSONValue(turnKey)] : ["mark": ["name": JSONValue(turnKey)]]
            return [agentFrame(provider.agentLabelEvent, extra: label)]
        case .interrupted:
            return [agentFrame(provider.agentClearEvent, extra: [:])]
        case .connectionOpened, .userTurnResumed, .sessionStarted, .ready, .userSpeechStarted, .userSpeechStopped, .agentTurnStarted,
            .agentAudioDone, .responseCancelled, .toolCall, .transcript, .speechResult, .utteranceEnd, .error, .ended:
            return []
        }
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        if let base64 = audio.base64 { return EncodedFrame(.text(audioPrefix + base64 + #""}}"#)) }
        return audio.sharedFrame ?? EncodedFrame(.text(""))
    }

    /// A message from the agent with `event` and, except on Telnyx (whose serializer sends none),
    /// the stream id.
    private func agentFrame(_ event: String, extra: [String: JSONValue]) -> WireFrame {
        var object = extra
        object["event"] = .string(event)
        if provider != .telnyx { object[provider.streamIDKey] = .string(streamID) }
        return .text(JSONFrame.text(object))
    }

    private mutating func startIntents(_ message: MediaStreamMessage) throws(DialectDecodingError) -> [ClientIntent] {
        guard let start = message.member("start") else { throw .malformed("start message without start") }
        if let id = message.object[provider.streamIDKey]?.stringValue ?? start[provider.streamIDKey]?.stringValue {
            streamID = id
            audioPrefix = Self.audioPrefix(provider: provider, streamID: id)
        }
        guard provider == .exotel, let custom = start["custom_parameters"]?.objectValue else { return [.start(parameters: [:])] }
        return [.start(parameters: custom)]
    }

    /// Telnyx `{"event":"media","media":{"payload":"`, Plivo `playAudio` with its content type
    /// and rate, Exotel `media` with the `stream_sid`.
    private static func audioPrefix(provider: TelephonyProvider, streamID: String) -> String {
        switch provider {
        case .telnyx:
            return #"{"event":"media","media":{"payload":""#
        case .plivo:
            return #"{"event":"playAudio","streamId":"# + JSONText.quoted(streamID)
                + #","media":{"contentType":"audio/x-mulaw","sampleRate":"# + String(provider.format.sampleRateHz) + #","payload":""#
        case .exotel:
            return #"{"event":"media","stream_sid":"# + JSONText.quoted(streamID) + #","media":{"payload":""#
        }
    }
}
