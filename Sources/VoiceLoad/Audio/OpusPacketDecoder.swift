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
    /// Where libopus writes each packet's samples: one buffer for the decoder's life, so a
    /// packet costs one allocation, its result's, and no zeroing.
    private let output: UnsafeMutableBufferPointer<Int16>
    /// Whether a packet that repeats a settled silence is answered without libopus (below).
    private let skipsSettledSilence: Bool
    /// The last packet, while every decoding of it in a row came out as digital silence, and
    /// how many times in a row.
    private var silence: (packet: [UInt8], repeats: Int)?
    /// A settled silence's samples as PCM16 bytes (all zeros), made once and shared by every
    /// packet answered with them.
    private var settledSilenceBytes: [UInt8] = []
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
        self.output = .allocate(capacity: Self.maximumPacketSamples)
    }

    deinit {
        opus_decoder_destroy(state)
        output.deallocate()
    }

    /// Decodes one packet to its samples (960 for a 20 ms packet); an empty packet, or one libopus
    /// rejects, is a typed error.
    package mutating func decode(_ packet: [UInt8]) throws(OpusError) -> [Int16] {
        guard let count = try decodeToOutput(packet) else { return [Int16](repeating: 0, count: settledSilenceBytes.count / 2) }
        return Array(output[..<count])
    }

    /// Decodes one packet to its samples as PCM16 bytes in host byte order (little-endian on
    /// every platform vload builds for), 1,920 bytes for a 20 ms packet; errors as `decode`'s.
    /// A settled silence's bytes are one shared array, not made again for each packet.
    package mutating func decodePCM16(_ packet: [UInt8]) throws(OpusError) -> [UInt8] {
        var preSkip = 0
        return try decodePCM16(packet, preSkip: &preSkip)
    }

    /// As `decodePCM16(_:)`, less the stream's first `preSkip` samples: as many of them as this
    /// packet holds are dropped, and `preSkip` lowered by that many (RFC 7845 §4.2's pre-skip).
    package mutating func decodePCM16(_ packet: [UInt8], preSkip: inout Int) throws(OpusError) -> [UInt8] {
        guard let count = try decodeToOutput(packet) else {
            let skipped = min(preSkip, settledSilenceBytes.count / 2)
            preSkip -= skipped
            return skipped == 0 ? settledSilenceBytes : Array(settledSilenceBytes.dropFirst(2 * skipped))
        }
        let skipped = min(preSkip, count)
        preSkip -= skipped
        return Array(outputBytes(skipped..<count))
    }

    /// Decodes `packet` into `output` and returns how many samples it holds, or nil for a packet
    /// answered as a settled silence (none written).
    private mutating func decodeToOutput(_ packet: [UInt8]) throws(OpusError) -> Int? {
        // libopus reads no packet as a lost one and conceals it: an empty payload is not that.
        guard !packet.isEmpty else { throw .emptyPacket }
        if skipsSettledSilence, let silence, silence.repeats >= Self.settledSilenceRepeats, silence.packet == packet {
            settledSilencePackets += 1
            return nil
        }
        let state = self.state
        let decoded = packet.withUnsafeBufferPointer { input in
            opus_decode(state, input.baseAddress, opus_int32(input.count), output.baseAddress!, Int32(output.count), 0)
        }
        guard decoded >= 0 else { throw .libopus(function: "opus_decode", code: decoded) }
        let count = Int(decoded)
        if count > 0, AudioLevel.isDigitalSilence(outputBytes(0..<count)) {
            if silence?.packet == packet { silence?.repeats += 1 } else { silence = (packet, 1) }
            if silence?.repeats == Self.settledSilenceRepeats, settledSilenceBytes.count != 2 * count {
                settledSilenceBytes = [UInt8](repeating: 0, count: 2 * count)
            }
        } else {
            silence = nil
        }
        return count
    }

    /// The samples `range` of `output`, as bytes.
    private func outputBytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: output[range]))
    }

    /// Decodes one packet into the chunk the caller's turn tracking reads (duration and level).
    package mutating func decodeChunk(_ packet: [UInt8], turnKey: String? = nil) throws(OpusError) -> AgentAudioChunk {
        AgentAudioChunk(audio: try decodePCM16(packet), format: .pcm16(OpusClip.sampleRateHz), turnKey: turnKey)
    }
}
