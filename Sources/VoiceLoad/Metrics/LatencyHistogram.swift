import Histogram

/// An HDR histogram of one latency metric, in microseconds, exact to three significant digits.
///
/// All histograms of a run share these settings, so histograms from separate processes merge
/// exactly (`add`).
package struct LatencyHistogram: Sendable {
    package static let highestTrackableUs: UInt64 = 3_600_000_000  // one hour
    package private(set) var histogram: Histogram<UInt64>

    package init() {
        histogram = Histogram<UInt64>(
            lowestDiscernibleValue: 1,
            highestTrackableValue: Self.highestTrackableUs,
            numberOfSignificantValueDigits: .three
        )
    }

    package var count: UInt64 { histogram.totalCount }

    /// Empty histograms for a run's `Recorder`, made before the run starts. 40 cover the
    /// metrics a run records (11 per session, 3 of the generator, up to 14 per turn and again
    /// per turn label) in the usual scenarios; 40 × ~190 KB of counts.
    package static func spares(_ count: Int = 40) -> [LatencyHistogram] {
        (0..<max(0, count)).map { _ in LatencyHistogram() }
    }

    /// Records one interval; negative intervals are clamped to zero (callers classify them
    /// before recording), values past an hour are clamped to an hour.
    package mutating func record(microseconds: Int64) {
        let value = UInt64(max(0, min(microseconds, Int64(Self.highestTrackableUs))))
        _ = histogram.record(value)
    }

    package mutating func add(_ other: LatencyHistogram) {
        histogram.add(other.histogram)
    }

    /// Count, mean and percentiles in milliseconds; nil when nothing was recorded. Min and max
    /// are the exact values recorded (the histogram's `max` is the top of the largest value's
    /// bucket, up to 0.1 % above it: 701.439 for a largest value of 701.263 ms); the
    /// percentiles are exact to three significant digits and never above the max.
    package var summary: MetricSummary? {
        guard count > 0 else { return nil }
        func ms(_ us: UInt64) -> Double { Double(us) / 1_000 }
        return MetricSummary(
            count: Int(count),
            minMs: ms(histogram.min),
            meanMs: histogram.mean / 1_000,
            p50Ms: ms(histogram.valueAtPercentile(50)),
            p90Ms: ms(histogram.valueAtPercentile(90)),
            p95Ms: ms(histogram.valueAtPercentile(95)),
            p99Ms: ms(histogram.valueAtPercentile(99)),
            maxMs: ms(histogram.maxRecorded)
        )
    }

    /// The recorded values as sparse (value µs, count) pairs; replaying them rebuilds the
    /// histogram exactly.
    package var sparseValues: [[UInt64]] {
        histogram.recordedValues().map { [$0.value, $0.count] }
    }

    /// The exact smallest and largest values recorded (the buckets keep them only to their precision).
    package var exactRange: (min: UInt64, max: UInt64)? {
        count > 0 ? (histogram.min, histogram.maxRecorded) : nil
    }

    /// Replays sparse pairs. With the exact range, the first bucket's values are recorded at the
    /// exact minimum and the last bucket's at the exact maximum, so the replayed histogram equals
    /// the original (counts, min and max), and so do its percentiles.
    package init(sparseValues: [[UInt64]], exactRange: (min: UInt64, max: UInt64)? = nil) {
        self.init()
        let pairs = sparseValues.filter { $0.count == 2 && $0[1] > 0 }
        for (position, pair) in pairs.enumerated() {
            var (value, count) = (pair[0], pair[1])
            if let exactRange, position == 0 {
                _ = histogram.record(exactRange.min)
                count -= 1
                value = pairs.count == 1 ? exactRange.max : value
            }
            if let exactRange, position == pairs.count - 1 { value = exactRange.max }
            if count > 0 { _ = histogram.record(value, count: count) }
        }
    }
}

/// The figures a report shows for one metric.
package struct MetricSummary: Sendable, Hashable, Codable {
    package var count: Int
    package var minMs: Double
    package var meanMs: Double
    package var p50Ms: Double
    package var p90Ms: Double
    package var p95Ms: Double
    package var p99Ms: Double
    package var maxMs: Double

    enum CodingKeys: String, CodingKey {
        case count
        case minMs = "min"
        case meanMs = "mean"
        case p50Ms = "p50"
        case p90Ms = "p90"
        case p95Ms = "p95"
        case p99Ms = "p99"
        case maxMs = "max"
    }
}
