/// The telephony providers whose media streams are JSON text frames with an `event`
/// discriminator and base64 audio in `media.payload`, as Twilio's are: vload plays the provider
/// (the caller's side) towards an agent server, and the simulator plays the agent
/// (docs/telephony.md). One codec serves all three; this type holds what differs.
package enum TelephonyProvider: String, Sendable, Hashable, CaseIterable {
    case telnyx
    case plivo
    case exotel

    /// The dialect's command-line id.
    package var dialectID: String {
        switch self {
        case .telnyx: return "telnyx-media-streaming"
        case .plivo: return "plivo-audio-streaming"
        case .exotel: return "exotel-voicebot"
        }
    }

    /// The version of the provider's stream protocol (`vload dialects`).
    var apiVersion: String {
        switch self {
        case .telnyx: return "Media Streaming 1.0.0 (as `connected` says)"
        case .plivo: return "Audio Streaming, bidirectional <Stream> (Plivo names no version)"
        case .exotel: return "Voicebot applet stream (Exotel names no version)"
        }
    }

    /// The audio both ways: µ-law 8 kHz (Telnyx PCMU, Plivo `audio/x-mulaw`), or Exotel's raw
    /// 16-bit PCM at 8 kHz.
    package var format: AudioFormat {
        switch self {
        case .telnyx, .plivo: return .mulaw8k
        case .exotel: return .pcm16(8_000)
        }
    }

    /// Where the stream id travels on every message: `stream_id`, `streamId`, `stream_sid`.
    var streamIDKey: String {
        switch self {
        case .telnyx: return "stream_id"
        case .plivo: return "streamId"
        case .exotel: return "stream_sid"
        }
    }

    /// The message sequence number's key: `sequence_number` (Telnyx, as a string; Exotel, a
    /// number) or `sequenceNumber` (Plivo, a number).
    var sequenceKey: String {
        self == .plivo ? "sequenceNumber" : "sequence_number"
    }

    /// The sequence number of the first numbered message (`start`): Plivo counts from 0.
    var firstSequenceNumber: Int {
        self == .plivo ? 0 : 1
    }

    /// Event names: what the agent sends audio, a playback label and barge-in as, and how the
    /// provider confirms a played label.
    enum AgentEvent {
        static let media = "media"
        static let plivoPlayAudio = "playAudio"
        static let mark = "mark"
        static let plivoCheckpoint = "checkpoint"
        static let clear = "clear"
        static let plivoClearAudio = "clearAudio"
    }

    /// The agent's audio message: `media`, or Plivo's `playAudio`.
    var agentAudioEvent: String { self == .plivo ? AgentEvent.plivoPlayAudio : AgentEvent.media }
    /// The agent's playback label: `mark`, or Plivo's `checkpoint`.
    var agentLabelEvent: String { self == .plivo ? AgentEvent.plivoCheckpoint : AgentEvent.mark }
    /// The agent's barge-in message: `clear`, or Plivo's `clearAudio`.
    var agentClearEvent: String { self == .plivo ? AgentEvent.plivoClearAudio : AgentEvent.clear }
    /// The provider's confirmation that a label has played: `mark`, or Plivo's `playedStream`.
    var labelPlayedEvent: String { self == .plivo ? "playedStream" : "mark" }
}
