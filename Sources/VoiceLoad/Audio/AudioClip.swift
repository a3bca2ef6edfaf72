/// Decoded mono audio: signed 16-bit samples at one sample rate.
///
/// `WAVReader` produces clips from files (downmixed to mono); `Resampler` changes their rate.
package struct AudioClip: Sendable, Hashable {
    /// Linear PCM samples, one per sample period (mono).
    package var samples: [Int16]
    /// Samples per second.
    package var sampleRateHz: Int

    /// Creates a clip from mono samples at `sampleRateHz` (which must be positive).
    package init(samples: [Int16], sampleRateHz: Int) {
        precondition(sampleRateHz > 0, "sample rate must be positive, got \(sampleRateHz)")
        self.samples = samples
        self.sampleRateHz = sampleRateHz
    }

    /// Length of the clip in milliseconds (fractional).
    package var durationMs: Double {
        guard sampleRateHz > 0 else { return 0 }
        return Double(samples.count) * 1_000 / Double(sampleRateHz)
    }

    /// Length of the clip in whole microseconds (rounded down).
    package var durationUs: Int64 {
        guard sampleRateHz > 0 else { return 0 }
        return Int64(samples.count) * 1_000_000 / Int64(sampleRateHz)
    }
}
