/// A caller's clip encoded once at load for WebRTC: resampled to 48 kHz with `Resampler`, cut
/// into 20 ms frames of mono audio (the last padded with silence) and Opus-encoded, each frame
/// with its RTP timestamp step. Immutable and shared by every session, like `PreparedUtterance`.
package struct OpusClip: Sendable, Hashable {
    /// Opus's RTP clock and the rate vload encodes at (RFC 7587 §4.1: the clock is always 48 kHz).
    package static let sampleRateHz = 48_000
    /// The frame length every browser and aiortc send.
    package static let frameMs = 20
    /// Samples in one frame at 48 kHz: the RTP timestamp step of a packet.
    package static let frameSamples = sampleRateHz * frameMs / 1_000

    /// The encoded frames in playing order.
    package let frames: [OpusFrame]
    /// The clip's length at 48 kHz before the last frame was padded.
    package let sampleCount: Int

    package init(frames: [OpusFrame], sampleCount: Int) {
        self.frames = frames
        self.sampleCount = sampleCount
    }

    /// The streamed length, padding included.
    package var durationMs: Int { frames.count * Self.frameMs }

    /// Encodes `clip` (any rate) as 20 ms Opus frames at 48 kHz.
    package static func encode(_ clip: AudioClip) throws(OpusError) -> OpusClip {
        let resampled: AudioClip
        do {
            resampled = try Resampler.resample(clip, toRateHz: sampleRateHz)
        } catch {
            throw .resampleFailed(reason: error.description)
        }
        var samples = resampled.samples
        let frameCount = (samples.count + frameSamples - 1) / frameSamples
        samples.append(contentsOf: repeatElement(0, count: frameCount * frameSamples - samples.count))
        var encoder = try OpusFrameEncoder()
        var frames: [OpusFrame] = []
        frames.reserveCapacity(frameCount)
        for start in stride(from: 0, to: samples.count, by: frameSamples) {
            let payload = try encoder.encode(samples[start..<(start + frameSamples)])
            frames.append(OpusFrame(payload: payload, timestampStepSamples: UInt32(frameSamples)))
        }
        return OpusClip(frames: frames, sampleCount: resampled.samples.count)
    }
}
