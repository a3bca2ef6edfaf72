import COpus

/// A libopus decoder for agent audio: Opus packets in, mono PCM16 at 48 kHz out, so the level
/// code that finds a reply's first voiced audio (`AudioLevel`, through `AgentAudioChunk`) reads
/// it as it reads any other dialect's PCM. It owns libopus state, so it cannot be copied.
///
/// A stream needs one decoder of its own that sees every packet in order: Opus frames predict
/// from the ones before. This is the per-session cost of Opus: about 241 k instructions a 20 ms
/// packet of speech, 52-55 µs here (BENCHMARKS.md, "Where a WebRTC frame's instructions go"),
/// less the packets of a settled silence, which are answered without libopus
/// (`settledSilenceRepeats`).
package struct OpusPacketDecoder: ~Copyable {
    /// The most samples one packet decodes to: 120 ms at 48 kHz (RFC 6716 §3.2.5).
    package static let maximumPacketSamples = 5_760

    private let state: OpaquePointer
    /// Whether a packet that repeats a settled silence is answered without libopus (below).
    private let skipsSettledSilence: Bool
    /// The last packet, while every decoding of it in a row came out as digital silence, how
    /// many times in a row, and its samples' count.
    private var silence: (packet: [UInt8], repeats: Int, sampleCount: Int)?
    /// Packets answered as a settled silence, without libopus.
    package private(set) var settledSilencePackets = 0

    /// Decodings in a row of one packet, all to digital silence, after which the decoder's state
    /// has settled: decoding it again would give zeros and leave what later packets decode
    /// from as it is.
    ///
    /// An agent with nothing to say streams one packet over and over (a Pipecat bot sends
    /// aiortc's 3-byte CELT silent frame, `f8 ff fe`, 50 times a second), and decoding it costs
    /// 20 µs, 241 k instructions for a speech packet (BENCHMARKS.md). libopus 1.3.1's state after
    /// a silent CELT frame: the band energies are set to their floor, the post-filter's gain is
    /// 0 and the mode stays CELT (SILK starts afresh on a change from CELT); the synthesis
    /// buffer (2,048 + 120 samples) is all zeros after three frames of 960, and the
    /// de-emphasis filter's memory reaches its fixed point within one. Only the concealment's
    /// noise floor goes on moving, which is used for lost packets, and vload conceals none
    /// (`decode` refuses an empty packet). Four, one beyond three; the unit tests hold the
    /// samples of whatever follows to those of a decoder that decoded every packet.
    package static let settledSilenceRepeats = 4

    /// `skipsSettledSilence` false decodes every packet through libopus (the tests' reference).
    package init(skipsSettledSilence: Bool = true) throws(OpusError) {
        self.skipsSettledSilence = skipsSettledSilence
        var code: Int32 = 0
        guard let state = opus_decoder_create(opus_int32(OpusClip.sampleRateHz), 1, &code), code == OPUS_OK else {
            throw .libopus(function: "opus_decoder_create", code: code)
        }
        self.state = state
    }

    deinit {
        opus_decoder_destroy(state)
    }

    /// Decodes one packet to its samples (960 for a 20 ms packet); an empty packet, or one libopus
    /// rejects, is a typed error.
    package mutating func decode(_ packet: [UInt8]) throws(OpusError) -> [Int16] {
        // libopus reads no packet as a lost one and conceals it: an empty payload is not that.
        guard !packet.isEmpty else { throw .emptyPacket }
        if skipsSettledSilence, let silence, silence.repeats >= Self.settledSilenceRepeats, silence.packet == packet {
            settledSilencePackets += 1
            return [Int16](repeating: 0, count: silence.sampleCount)
        }
        let samples = try decodeThroughLibopus(packet)
        if !samples.isEmpty, !samples.contains(where: { $0 != 0 }) {
            if silence?.packet == packet { silence?.repeats += 1 } else { silence = (packet, 1, samples.count) }
        } else {
            silence = nil
        }
        return samples
    }

    private func decodeThroughLibopus(_ packet: [UInt8]) throws(OpusError) -> [Int16] {
        var samples = [Int16](repeating: 0, count: Self.maximumPacketSamples)
        let state = self.state
        let decoded = packet.withUnsafeBufferPointer { input in
            samples.withUnsafeMutableBufferPointer { output in
                opus_decode(state, input.baseAddress, opus_int32(input.count), output.baseAddress!, Int32(output.count), 0)
            }
        }
        guard decoded >= 0 else { throw .libopus(function: "opus_decode", code: decoded) }
        samples.removeLast(samples.count - Int(decoded))
        return samples
    }

    /// Decodes one packet into the chunk the caller's turn tracking reads (duration and level).
    package mutating func decodeChunk(_ packet: [UInt8], turnKey: String? = nil) throws(OpusError) -> AgentAudioChunk {
        let format = AudioFormat.pcm16(OpusClip.sampleRateHz)
        return AgentAudioChunk(audio: AudioEncoder.encode(try decode(packet), as: format), format: format, turnKey: turnKey)
    }
}
