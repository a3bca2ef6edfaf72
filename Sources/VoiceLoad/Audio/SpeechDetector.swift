import Foundation

/// Offline energy voice-activity detector that finds the speech span inside a clip
/// (docs/metrics.md).
///
/// The clip is cut into windows of `windowMs`. A window is voiced when its RMS is at or above
/// `relativeThresholdDb` relative to the loudest window *and* above `absoluteFloorDbfs`
/// (RMS relative to full scale, 32768). Runs of consecutive voiced windows shorter than
/// `minSpeechMs` are clicks and are ignored. Speech starts at the first sample of the first
/// qualifying run and ends after the last sample of the last qualifying run; quiet gaps
/// between qualifying runs (pauses between words) are part of the speech span.
package struct SpeechDetector: Sendable, Hashable {
    /// Analysis window length.
    package var windowMs = 10
    /// Voicing threshold relative to the RMS of the loudest window, in dB (negative).
    package var relativeThresholdDb = -30.0
    /// Absolute voicing floor: a window at or below this RMS level (dBFS) is never voiced.
    package var absoluteFloorDbfs = -50.0
    /// Shortest voiced run that counts as speech; shorter runs are clicks.
    package var minSpeechMs = 30

    package init(
        windowMs: Int = 10,
        relativeThresholdDb: Double = -30.0,
        absoluteFloorDbfs: Double = -50.0,
        minSpeechMs: Int = 30
    ) {
        self.windowMs = windowMs
        self.relativeThresholdDb = relativeThresholdDb
        self.absoluteFloorDbfs = absoluteFloorDbfs
        self.minSpeechMs = minSpeechMs
    }

    /// The speech span of `samples` (mono PCM16 at `sampleRateHz`), or nil when no run of
    /// voiced windows lasts `minSpeechMs`.
    package func boundaries(of samples: [Int16], sampleRateHz: Int) -> SpeechBoundaries? {
        guard sampleRateHz > 0, !samples.isEmpty else { return nil }
        let windowSamples = max(1, sampleRateHz * max(windowMs, 0) / 1_000)
        let levels = windowLevels(of: samples, windowSamples: windowSamples)
        guard let loudest = levels.max(), loudest > 0 else { return nil }

        let relativeLevel = loudest * AudioLevel.amplitude(dbfs: relativeThresholdDb)
        let floorLevel = AudioLevel.amplitude(dbfs: absoluteFloorDbfs)
        let minRunSamples = max(1, sampleRateHz * max(minSpeechMs, 0) / 1_000)

        var firstStart: Int?
        var lastEnd: Int?
        var runStart: Int?
        for index in 0...levels.count {
            let voiced = index < levels.count && levels[index] >= relativeLevel && levels[index] > floorLevel
            if voiced {
                if runStart == nil { runStart = index * windowSamples }
                continue
            }
            guard let start = runStart else { continue }
            runStart = nil
            let end = min(index * windowSamples, samples.count)
            if end - start >= minRunSamples {
                if firstStart == nil { firstStart = start }
                lastEnd = end
            }
        }
        guard let start = firstStart, let end = lastEnd else { return nil }
        return SpeechBoundaries(
            speechStartUs: Self.microseconds(samples: start, rateHz: sampleRateHz),
            speechEndUs: Self.microseconds(samples: end, rateHz: sampleRateHz)
        )
    }

    /// The level of each window (`AudioLevel`); the last window may be partial.
    private func windowLevels(of samples: [Int16], windowSamples: Int) -> [Double] {
        stride(from: 0, to: samples.count, by: windowSamples).map { start in
            AudioLevel.rms(of: samples[start..<min(start + windowSamples, samples.count)])
        }
    }

    private static func microseconds(samples: Int, rateHz: Int) -> Int64 {
        Int64(samples) * 1_000_000 / Int64(rateHz)
    }
}
