import Foundation

/// `vload compare`: each latency percentile of a current run against a baseline run.
///
/// A change is a regression only when the current figure is worse (higher) than the baseline
/// by more than the tolerance *and* beyond run-to-run noise: the 95% bootstrap intervals of
/// the percentile (seeded resampling of each report's stored histogram) do not overlap, *and*
/// by more than the noise floor, one audio frame of the baseline run (`config.frame_ms`):
/// latency is quantized by the frame, and setup metrics of a few milliseconds (connect_ms
/// 9 → 15 ms) move that much between identical runs, which resampling within one run cannot
/// see. Fewer than 20 samples on either side are flagged and never a regression.
package struct ReportComparison: Sendable {
    /// The percentiles compared.
    package static let percentiles: [Double] = [50, 90, 95, 99]
    package static let minimumSamples = 20

    /// One metric (of one label), one percentile.
    package struct Row: Sendable, Hashable {
        package enum Verdict: String, Sendable, Hashable {
            case unchanged = "ok"
            case regression = "REGRESSION"
            case improvement = "improved"
            case lowSample = "low sample"
        }

        package var metric: String
        package var label: String?
        package var percentile: String
        package var baselineMs: Double
        package var currentMs: Double
        /// (current − baseline) / baseline, in percent.
        package var changePercent: Double
        package var baselineInterval: ClosedRange<Double>?
        package var currentInterval: ClosedRange<Double>?
        package var baselineCount: Int
        package var currentCount: Int
        package var verdict: Verdict
    }

    package var tolerancePercent: Double
    /// Changes no larger than this are never regressions (one audio frame of the baseline).
    package var noiseFloorMs: Double
    package var rows: [Row]

    package var regressions: [Row] { rows.filter { $0.verdict == .regression } }

    /// Compares every latency metric with samples in both reports, overall and per label.
    package init(baseline: RunReport, current: RunReport, tolerancePercent: Double = 10, seed: UInt64 = 0x5EED) {
        self.tolerancePercent = tolerancePercent
        let noiseFloorMs = Double(baseline.config.frameMs)
        self.noiseFloorMs = noiseFloorMs
        var rows: [Row] = []
        for metric in MetricName.endpointMetrics {
            rows += Self.compare(
                metric.rawValue,
                label: nil,
                baseline.metrics[metric.rawValue],
                current.metrics[metric.rawValue],
                tolerancePercent: tolerancePercent,
                noiseFloorMs: noiseFloorMs,
                seed: seed
            )
        }
        for label in baseline.labels.keys.sorted() where current.labels[label] != nil {
            for metric in TurnRecord.metricNames {
                rows += Self.compare(
                    metric.rawValue,
                    label: label,
                    baseline.labels[label]?[metric.rawValue],
                    current.labels[label]?[metric.rawValue],
                    tolerancePercent: tolerancePercent,
                    noiseFloorMs: noiseFloorMs,
                    seed: seed
                )
            }
        }
        self.rows = rows
    }

    static func compare(
        _ metric: String,
        label: String?,
        _ baseline: MetricReport?,
        _ current: MetricReport?,
        tolerancePercent: Double,
        noiseFloorMs: Double = 0,
        seed: UInt64
    ) -> [Row] {
        guard let before = baseline?.histogram?.histogram, let after = current?.histogram?.histogram,
            before.count > 0, after.count > 0
        else { return [] }
        let baselineBootstrap = PercentileBootstrap(before)
        let currentBootstrap = PercentileBootstrap(after)
        let small = baselineBootstrap.count < minimumSamples || currentBootstrap.count < minimumSamples
        let metricSeed = seed ^ stableHash(metric + "{" + (label ?? "") + "}")
        let baselineIntervals =
            small
            ? []
            : baselineBootstrap.intervals(
                percentiles,
                resamples: resamples(baselineBootstrap.count),
                seed: metricSeed
            )
        let currentIntervals =
            small
            ? []
            : currentBootstrap.intervals(
                percentiles,
                resamples: resamples(currentBootstrap.count),
                seed: metricSeed &+ 1
            )
        return percentiles.enumerated().compactMap { index, percentile -> Row? in
            guard let old = baselineBootstrap.point(percentile), let new = currentBootstrap.point(percentile) else { return nil }
            let change = old > 0 ? (new - old) / old * 100 : (new > old ? Double.infinity : 0)
            let oldInterval = baselineIntervals.isEmpty ? nil : baselineIntervals[index]
            let newInterval = currentIntervals.isEmpty ? nil : currentIntervals[index]
            var verdict = Row.Verdict.unchanged
            if small {
                verdict = .lowSample
            } else if let oldInterval, let newInterval {
                let beyondFloor = abs(new - old) > noiseFloorMs
                if change > tolerancePercent, beyondFloor, newInterval.lowerBound > oldInterval.upperBound {
                    verdict = .regression
                } else if change < -tolerancePercent, beyondFloor, newInterval.upperBound < oldInterval.lowerBound {
                    verdict = .improvement
                }
            }
            return Row(
                metric: metric,
                label: label,
                percentile: ThresholdAggregation.percentile(percentile).name,
                baselineMs: old,
                currentMs: new,
                changePercent: (change * 10).rounded() / 10,
                baselineInterval: oldInterval,
                currentInterval: newInterval,
                baselineCount: baselineBootstrap.count,
                currentCount: currentBootstrap.count,
                verdict: verdict
            )
        }
    }

    /// Fewer resamples for very large histograms, so a comparison stays within seconds.
    static func resamples(_ count: Int) -> Int {
        max(200, min(1_000, 20_000_000 / max(count, 1)))
    }

    /// FNV-1a: the same seed on every run and platform (Swift's `hashValue` is randomized).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        return hash
    }
}
