import Foundation

extension HTMLReport {
    /// Latency percentiles of first_audio_from_end_ms per time bucket.
    static func latencyOverTime(_ report: RunReport) -> SVGChart {
        let buckets = report.timeline.filter { $0.firstAudioFromEndMs.count > 0 }
        func series(_ name: String, _ color: String, _ value: (TimelinePoint.Latency) -> Double?) -> SVGChart.Series {
            let points = buckets.compactMap { bucket in value(bucket.firstAudioFromEndMs).map { (x: bucket.tS, y: $0) } }
            return SVGChart.Series(name: name, color: color, style: .line, points: points)
        }
        return SVGChart(
            title: "first_audio_from_end_ms over time (p50, p95 per bucket)",
            xLabel: "seconds since start",
            yLabel: "ms",
            series: buckets.isEmpty ? [] : [series("p50", "#2563eb", \.p50), series("p95", "#d97706", \.p95)],
            xRange: runSpanS(report),
            shadedX: outageBands(report)
        )
    }

    /// The run's outages, for shading on the charts over time.
    static func outageBands(_ report: RunReport) -> [(from: Double, to: Double, label: String)] {
        (report.outages ?? []).map { (from: $0.startS, to: $0.endS ?? runSpanS(report).upperBound, label: $0.text) }
    }

    /// Active sessions (line) and errors (bars) per time bucket.
    static func sessionsOverTime(_ report: RunReport) -> SVGChart {
        let timeline = report.timeline
        guard !timeline.isEmpty else {
            return SVGChart(title: "active sessions and errors over time", xLabel: "seconds since start", yLabel: "count", series: [])
        }
        let width = timeline.map(\.widthS).min() ?? 1
        return SVGChart(
            title: "active sessions and errors over time",
            xLabel: "seconds since start",
            yLabel: "count",
            series: [
                SVGChart.Series(
                    name: "errors",
                    color: "#dc2626",
                    style: .bars(width: width),
                    points: timeline.map { (x: $0.tS, y: Double($0.errors)) }
                ),
                SVGChart.Series(
                    name: "active sessions",
                    color: "#059669",
                    style: .line,
                    points: timeline.map { (x: $0.tS, y: Double($0.activeSessions)) }
                ),
            ],
            xRange: runSpanS(report),
            wholeY: true,
            shadedX: outageBands(report)
        )
    }

    /// The distribution of one metric, from its stored HDR histogram: samples per latency bin.
    static func distribution(name: String, metric: MetricReport) -> SVGChart {
        let bins = histogramBins(metric.histogram?.values ?? [])
        return SVGChart(
            title: "\(name) distribution (\(metric.count) samples)",
            xLabel: "ms",
            yLabel: "samples",
            series: bins.isEmpty
                ? []
                : [
                    SVGChart.Series(name: name, color: "#7c3aed", style: .bars(width: bins.widthMs), points: bins.points)
                ],
            wholeY: true,
            heightPx: 200
        )
    }

    /// From the start to the end of the run (or of its last bucket), in seconds.
    static func runSpanS(_ report: RunReport) -> ClosedRange<Double> {
        0...max(report.durationS, report.timeline.last.map { $0.tS + $0.widthS } ?? 0, 1)
    }

    /// Sparse (value µs, count) pairs summed into at most 40 equal bins between min and max, in ms.
    static func histogramBins(_ values: [[UInt64]]) -> (points: [(x: Double, y: Double)], widthMs: Double, isEmpty: Bool) {
        let pairs = values.filter { $0.count == 2 && $0[1] > 0 }.map { (ms: Double($0[0]) / 1_000, count: Double($0[1])) }
        guard let low = pairs.map(\.ms).min(), let high = pairs.map(\.ms).max() else { return ([], 1, true) }
        let binCount = 40
        let span = high - low
        let widthMs = span > 0 ? span / Double(binCount) : max(high * 0.05, 0.1)
        var counts = [Double](repeating: 0, count: span > 0 ? binCount : 1)
        for pair in pairs {
            let index = span > 0 ? min(Int((pair.ms - low) / widthMs), binCount - 1) : 0
            counts[index] += pair.count
        }
        let points = counts.enumerated().map { (x: low + Double($0.offset) * widthMs, y: $0.element) }
        return (points, widthMs, false)
    }
}
