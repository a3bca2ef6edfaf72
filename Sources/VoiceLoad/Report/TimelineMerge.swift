import Foundation

/// The timelines of a split run's reports laid over one another on the wall clock.
///
/// Each part's buckets move by the whole seconds between its start and the earliest start
/// (wall clocks of separate machines agree only as well as NTP keeps them). Counts add up;
/// active sessions add up the parts' peaks (an upper bound of the whole's peak). Per-bucket
/// first-audio percentiles are the count-weighted means of the parts' (an approximation, since
/// a bucket keeps no histogram); the run's own percentiles in `metrics` are exact.
enum TimelineMerge {
    static func merge(_ parts: [(startedAt: String, points: [TimelinePoint])], startedAt: String) -> [TimelinePoint] {
        let origin = ReportTimestamp.date(startedAt)
        var buckets: [Int: [TimelinePoint]] = [:]
        for part in parts {
            let shiftS = origin.flatMap { origin in ReportTimestamp.date(part.startedAt).map { $0.timeIntervalSince(origin) } } ?? 0
            for point in part.points {
                let index = Timeline.bucketIndex(atMs: (point.tS + shiftS.rounded()) * 1_000)
                buckets[index, default: []].append(point)
            }
        }
        guard let last = buckets.keys.max() else { return [] }
        return (0...last).map { index in
            let (startS, widthS) = Timeline.span(ofBucket: index)
            let points = buckets[index] ?? []
            return TimelinePoint(
                tS: Double(startS),
                widthS: Double(widthS),
                activeSessions: points.map(\.activeSessions).reduce(0, +),
                sessionsStarted: points.map(\.sessionsStarted).reduce(0, +),
                turnsCompleted: points.map(\.turnsCompleted).reduce(0, +),
                errors: points.map(\.errors).reduce(0, +),
                firstAudioFromEndMs: mergeLatency(points.map(\.firstAudioFromEndMs))
            )
        }
    }

    private static func mergeLatency(_ parts: [TimelinePoint.Latency]) -> TimelinePoint.Latency {
        let measured = parts.filter { $0.count > 0 }
        let count = measured.map(\.count).reduce(0, +)
        guard count > 0 else { return TimelinePoint.Latency(count: 0) }
        func weighted(_ value: KeyPath<TimelinePoint.Latency, Double?>) -> Double? {
            let pairs = measured.compactMap { part in part[keyPath: value].map { ($0, Double(part.count)) } }
            guard !pairs.isEmpty else { return nil }
            let total = pairs.map { $0.0 * $0.1 }.reduce(0, +) / pairs.map(\.1).reduce(0, +)
            return (total * 10).rounded() / 10
        }
        return TimelinePoint.Latency(
            count: count,
            p50: weighted(\.p50),
            p95: weighted(\.p95),
            max: measured.compactMap(\.max).max()
        )
    }
}
