/// Offline energy voice-activity detector that finds the speech span inside a clip
/// (docs/metrics.md, docs/callers.md).
///
/// Windows are voiced by `VoicingRule`, against the clip's loudest window. Speech starts at the
/// first sample of the first run of voiced windows that is not a click and ends after the last
/// sample of the last such run (at the clip's end when that run reaches it); quiet gaps between
/// runs (pauses between words) are part of the speech span.
package struct SpeechDetector: Sendable, Hashable {
    /// What makes a window voiced; the built-in simulator hears by the same rule.
    package var rule: VoicingRule

    package init(rule: VoicingRule = VoicingRule()) {
        self.rule = rule
    }

    /// The speech span of `samples` (mono PCM16 at `sampleRateHz`), or nil when no run of
    /// voiced windows lasts the rule's `minSpeechMs`.
    package func boundaries(of samples: [Int16], sampleRateHz: Int) -> SpeechBoundaries? {
        guard sampleRateHz > 0, !samples.isEmpty else { return nil }
        let windows = rule.windows(rateHz: sampleRateHz)
        let sums = windowSums(of: samples, windowSamples: windows.samples)
        guard let loudest = sums.max(), loudest > 0 else { return nil }

        var firstStart: Int?
        var lastEnd: Int?
        var runStart: Int?
        for index in 0...sums.count {
            if index < sums.count, windows.isVoiced(sumOfSquares: sums[index], loudestSumOfSquares: loudest) {
                if runStart == nil { runStart = index }
                continue
            }
            guard let start = runStart else { continue }
            runStart = nil
            if index - start >= windows.minSpeechWindows {
                if firstStart == nil { firstStart = start * windows.samples }
                lastEnd = min(index * windows.samples, samples.count)
            }
        }
        guard let start = firstStart, let end = lastEnd else { return nil }
        return SpeechBoundaries(
            speechStartUs: Self.microseconds(samples: start, rateHz: sampleRateHz),
            speechEndUs: Self.microseconds(samples: end, rateHz: sampleRateHz)
        )
    }

    /// The sum of squares of each window; the last window may be partial, its missing samples
    /// silence (`VoicingRule`).
    private func windowSums(of samples: [Int16], windowSamples: Int) -> [Int64] {
        stride(from: 0, to: samples.count, by: windowSamples).map { start in
            var sum: Int64 = 0
            for sample in samples[start..<min(start + windowSamples, samples.count)] { sum += Int64(sample) * Int64(sample) }
            return sum
        }
    }

    private static func microseconds(samples: Int, rateHz: Int) -> Int64 {
        Int64(samples) * 1_000_000 / Int64(rateHz)
    }
}
