import COpus

/// A libopus encoder for the caller's audio: 48 kHz, mono, the VOIP application, one 20 ms
/// frame (960 samples) a call. It owns libopus state, so it cannot be copied.
///
/// Settings are libopus's defaults apart from the application: variable bitrate (43 kbps on
/// average over the shipped clips, which libopus codes as hybrid SILK and CELT) and complexity 9
/// (libopus 1.3.1). aiortc 1.16's encoder (the sender of Pipecat's SmallWebRTC transport) is set
/// otherwise, through PyAV: stereo, 96 kbps, the VOIP application, so its speech is CELT; an
/// agent decodes either at about the same cost, 52-55 µs a packet here (BENCHMARKS.md, "Where a
/// WebRTC frame's instructions go"). Encoding is done once per clip at load, about 2.4 M
/// instructions a 20 ms frame (BENCHMARKS.md, "Opus at load"), so its cost does not grow with
/// the number of sessions.
package struct OpusFrameEncoder: ~Copyable {
    private let state: OpaquePointer

    package init() throws(OpusError) {
        var code: Int32 = 0
        guard let state = opus_encoder_create(opus_int32(OpusClip.sampleRateHz), 1, OPUS_APPLICATION_VOIP, &code),
            code == OPUS_OK
        else {
            throw .libopus(function: "opus_encoder_create", code: code)
        }
        self.state = state
    }

    deinit {
        opus_encoder_destroy(state)
    }

    /// The encoder's algorithmic delay in samples at 48 kHz: decoded audio comes out this much
    /// later than it went in (312 samples, 6.5 ms, for the VOIP application in libopus 1.3.1).
    package var lookaheadSamples: Int {
        var samples: opus_int32 = 0
        _ = vload_opus_encoder_lookahead(state, &samples)
        return Int(samples)
    }

    /// The target bitrate in bits per second that libopus chose.
    package var bitrateBitsPerSecond: Int {
        var bitsPerSecond: opus_int32 = 0
        _ = vload_opus_encoder_bitrate(state, &bitsPerSecond)
        return Int(bitsPerSecond)
    }

    /// Sets the target bitrate in bits per second, in place of libopus's choice.
    package mutating func setBitrate(bitsPerSecond: Int) throws(OpusError) {
        let code = vload_opus_encoder_set_bitrate(state, opus_int32(bitsPerSecond))
        guard code == OPUS_OK else { throw .libopus(function: "opus_encoder_ctl(OPUS_SET_BITRATE)", code: code) }
    }

    /// Encodes one frame of exactly `OpusClip.frameSamples` samples into an Opus packet.
    package mutating func encode(_ samples: ArraySlice<Int16>) throws(OpusError) -> [UInt8] {
        guard samples.count == OpusClip.frameSamples else { throw .frameLength(sampleCount: samples.count) }
        // 1,275 bytes is the largest packet of one Opus frame (RFC 6716 §3.2.1).
        var packet = [UInt8](repeating: 0, count: 1_275)
        let state = self.state
        let written = samples.withUnsafeBufferPointer { input in
            packet.withUnsafeMutableBufferPointer { output in
                // Neither buffer is empty: the guard above and the 1,275 bytes.
                opus_encode(state, input.baseAddress!, Int32(input.count), output.baseAddress!, opus_int32(output.count))
            }
        }
        guard written > 0 else { throw .libopus(function: "opus_encode", code: written) }
        packet.removeLast(packet.count - Int(written))
        return packet
    }
}
