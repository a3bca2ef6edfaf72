/// One metric in report.json. With no samples only `count` (0) is present: absent, never zero.
package struct MetricReport: Codable, Sendable {
    enum CodingKeys: String, CodingKey {
        case count, min, mean, p50, p90, p95, p99, max
        case lowSample = "low_sample"
        case histogram
    }

    package var count: Int
    package var min: Double?
    package var mean: Double?
    package var p50: Double?
    package var p90: Double?
    package var p95: Double?
    package var p99: Double?
    package var max: Double?
    /// Fewer than 20 samples: percentiles are not meaningful.
    package var lowSample: Bool?
    package var histogram: SerializedHistogram?

    package init(_ histogram: LatencyHistogram?) {
        guard let histogram, let summary = histogram.summary else {
            count = 0
            return
        }
        count = summary.count
        min = summary.minMs
        mean = (summary.meanMs * 1_000).rounded() / 1_000
        p50 = summary.p50Ms
        p90 = summary.p90Ms
        p95 = summary.p95Ms
        p99 = summary.p99Ms
        max = summary.maxMs
        lowSample = summary.count < 20 ? true : nil
        self.histogram = SerializedHistogram(histogram)
    }
}
