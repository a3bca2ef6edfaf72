import COpus

/// A libopus decoder for agent audio: Opus packets in, mono PCM16 at 48 kHz out, so the level
/// code that finds a reply's first voiced audio (`AudioLevel`, through `AgentAudioChunk`) reads
/// it as it reads any other dialect's PCM. It owns libopus state, so it cannot be copied.
///
/// A stream needs one decoder of its own that sees every packet in order: Opus frames predict
/// from the ones before. This is the per-session cost of Opus: about 354 k instructions a 20 ms
/// packet, 1.3 ms of CPU a second of agent audio (BENCHMARKS.md, "Opus at load").
package struct OpusPacketDecoder: ~Copyable {
    /// The most samples one packet decodes to: 120 ms at 48 kHz (RFC 6716 §3.2.5).
    package static let maximumPacketSamples = 5_760

    private let state: OpaquePointer

    package init() throws(OpusError) {
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
