/// Whether a window of a caller's audio is voiced: the one rule behind both the truth every
/// latency counts from (`SpeechDetector`, on a clean clip as sent) and the built-in simulator's
/// hearing (its streaming VAD), so that both find the same end of speech in the same audio
/// (docs/callers.md, "One rule for the end of speech").
///
/// The audio is cut into windows of `windowMs` from its first sample; a window the audio ends
/// inside counts its missing samples as silence, as the stream carries it once the clip is
/// padded to whole frames. A window is voiced when its power is at most `relativeThresholdDb`
/// under the loudest window's *and* above `absoluteFloorDbfs`. Voiced runs shorter than
/// `minSpeechMs` are clicks, not speech.
package struct VoicingRule: Sendable, Hashable {
    /// Analysis window length.
    package var windowMs = 10
    /// Voicing threshold relative to the loudest window, in dB (negative).
    package var relativeThresholdDb = -30.0
    /// Absolute voicing floor: a window at or below this RMS level (dBFS) is never voiced.
    package var absoluteFloorDbfs = -50.0
    /// Shortest voiced run that counts as speech; shorter runs are clicks.
    package var minSpeechMs = 30

    package init(windowMs: Int = 10, relativeThresholdDb: Double = -30.0, absoluteFloorDbfs: Double = -50.0, minSpeechMs: Int = 30) {
        self.windowMs = windowMs
        self.relativeThresholdDb = relativeThresholdDb
        self.absoluteFloorDbfs = absoluteFloorDbfs
        self.minSpeechMs = minSpeechMs
    }

    /// The rule at one sample rate, with its thresholds worked out once.
    package struct Windows: Sendable, Hashable {
        /// Samples in one window.
        package let samples: Int
        /// Voiced runs of fewer windows are clicks.
        package let minSpeechWindows: Int
        /// A window's sum of squares must be at least the loudest window's times this.
        let relativeRatio: Double
        /// A window's sum of squares must be above this.
        let floorSumOfSquares: Double

        /// Whether a window whose samples' squares sum to `sumOfSquares` is voiced, beside the
        /// loudest window's `loudestSumOfSquares`; both are sums over `samples` samples.
        package func isVoiced(sumOfSquares: Int64, loudestSumOfSquares: Int64) -> Bool {
            let sum = Double(sumOfSquares)
            return sum > floorSumOfSquares && sum >= Double(loudestSumOfSquares) * relativeRatio
        }
    }

    /// `10 ms windows, voiced within 30 dB of the loudest and above -50 dBFS`.
    package var description: String {
        "\(windowMs) ms windows, voiced within \(Int(-relativeThresholdDb)) dB of the loudest and above \(Int(absoluteFloorDbfs)) dBFS"
    }

    /// The rule for audio at `rateHz`.
    package func windows(rateHz: Int) -> Windows {
        let windowMs = max(windowMs, 1)
        let samples = max(1, rateHz * windowMs / 1_000)
        let floor = 32_768 * AudioLevel.amplitude(dbfs: absoluteFloorDbfs)
        return Windows(
            samples: samples,
            minSpeechWindows: max(1, (max(minSpeechMs, 0) + windowMs - 1) / windowMs),
            relativeRatio: AudioLevel.powerRatio(db: relativeThresholdDb),
            floorSumOfSquares: floor * floor * Double(samples)
        )
    }
}
