/// 20 ms of digital silence as one Opus packet, as aiortc 1.16 sends a frame of zeros: encoded at
/// aiortc's bitrate (`OpusEncoder` in its codecs/opus.py sets `bit_rate` to 96,000), where
/// libopus 1.3.1 codes zeros as CELT's 3-byte silent frame, `f8 ff fe`, which decodes to exact
/// zeros. At libopus's own choice of bitrate for mono VOIP, zeros come out as 57–59-byte hybrid
/// packets that decode to a few samples of ±1 a frame: a peer decodes each at a speech packet's
/// cost (49 µs here), and a caller would take them for the agent speaking.
///
/// Both sides' quiet is this packet: a caller's frames between its clips (`WebRTCClientDialect`)
/// and the simulator's Pipecat bot between its turns. Repeated, it is what a decoder answers
/// without libopus once it has settled (`OpusPacketDecoder.settledSilenceRepeats`).
package enum OpusSilence {
    /// aiortc's Opus bitrate, in bits per second.
    package static let aiortcBitrateBitsPerSecond = 96_000

    /// The packet, encoded once a process by a fresh encoder at aiortc's bitrate.
    package static let packet: [UInt8] = {
        do {
            var encoder = try OpusFrameEncoder()
            try encoder.setBitrate(bitsPerSecond: aiortcBitrateBitsPerSecond)
            return try encoder.encode([Int16](repeating: 0, count: OpusClip.frameSamples)[...])
        } catch {
            preconditionFailure("libopus cannot encode a frame of silence: \(error)")
        }
    }()
}
