import VoiceLoad

/// What the simulator's WebRTC agent sends while it is not speaking (docs/webrtc.md, "What the
/// simulator sends while quiet").
enum IdleSilence {
    /// The Opus packet of 20 ms of digital silence that `dialect`'s agent streams whenever it is
    /// not speaking, encoded once per run: every frame of silence is the same packet, so only its
    /// RTP header and SRTP differ from one to the next. nil for an agent that sends nothing
    /// between its turns.
    ///
    /// - `pipecat-webrtc`: a Pipecat bot's SmallWebRTC output track (`RawAudioTrack`,
    ///   `auto_silence` on by default in pipecat-ai 1.14) hands aiortc a frame of zeros whenever
    ///   the bot has nothing to play, and aiortc encodes every frame (no DTX), at its 96 kbit/s:
    ///   3 bytes, `f8 ff fe`, which decode to exact zeros (`OpusSilence`).
    /// - `openai-realtime-webrtc`: what OpenAI's server sends between responses is not
    ///   documented, so the simulator sends nothing there, as before.
    static func packet(for dialect: any ServerDialect) -> [UInt8]? {
        guard dialect.webRTCSignalling == .smallWebRTC else { return nil }
        return OpusSilence.packet
    }
}
