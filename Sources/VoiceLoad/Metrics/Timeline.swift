import Foundation
import WSCore

/// The run second by second: active sessions, sessions started, turns completed, errors and
/// first-audio latency per time bucket, measured from the run's start on the monotonic clock.
///
/// Buckets are one second wide for the first hour and ten seconds wide after it; past
/// `maxBuckets` every event lands in the last bucket, so a run of any length holds a bounded
/// amount of memory. Latencies go into a sparse log sketch (1 % relative precision) per bucket.
package struct Timeline: Sendable {
    /// Buckets of one second up to this offset, of `coarseWidthS` after it.
    package static let fineSpanS = 3_600
    package static let coarseWidthS = 10
    /// One hour of one-second buckets and a day of ten-second buckets.
    package static let maxBuckets = fineSpanS + 8_640

    package let startedAt: MonotonicInstant
    private var buckets: [Bucket] = []
    private var active = 0

    package init(startedAt: MonotonicInstant) {
        self.startedAt = startedAt
    }

    /// A session opened at `instant`.
    package mutating func sessionStarted(at instant: MonotonicInstant) {
        update(at: instant) { bucket, active in
            active += 1
            bucket.sessionsStarted += 1
        }
    }

    /// A session ended at `instant`.
    package mutating func sessionEnded(at instant: MonotonicInstant) {
        update(at: instant) { _, active in active = max(0, active - 1) }
    }

    /// A turn finished at `instant`; completed turns are counted, any first-audio latency (µs)
    /// kept, in the milliseconds of the timeline's points.
    package mutating func turnFinished(at instant: MonotonicInstant, completed: Bool, firstAudioFromEndUs: Int64?) {
        update(at: instant) { bucket, _ in
            if completed { bucket.turnsCompleted += 1 }
            if let firstAudioFromEndUs { bucket.firstAudio.record(Double(firstAudioFromEndUs) / 1_000) }
        }
    }

    /// An error of any class at `instant`.
    package mutating func error(at instant: MonotonicInstant) {
        update(at: instant) { bucket, _ in bucket.errors += 1 }
    }

    /// Sessions open now.
    package var activeSessions: Int { active }

    /// First-audio latency of the turns that finished from `windowMs` before `instant` up to
    /// `instant` (whole buckets: the one `instant` falls in and those back to `windowMs` before it).
    package func recentFirstAudio(windowMs: Double, endingAt instant: MonotonicInstant) -> TimelinePoint.Latency {
        let nowMs = max(0, instant.milliseconds(since: startedAt))
        let last = min(Self.bucketIndex(atMs: nowMs), buckets.count - 1)
        let first = Self.bucketIndex(atMs: max(0, nowMs - windowMs))
        guard first <= last else { return TimelinePoint.Latency(count: 0) }
        var merged = LatencySketch()
        for index in first...last { merged.add(buckets[index].firstAudio) }
        return merged.summary
    }

    /// The buckets from the start to the last event, gaps filled (no events, sessions still open).
    package var points: [TimelinePoint] {
        var carriedActive = 0
        return buckets.enumerated().map { index, bucket in
            let (startS, widthS) = Self.span(ofBucket: index)
            let touched = bucket.touched
            if touched { carriedActive = bucket.activeAtEnd }
            return TimelinePoint(
                tS: Double(startS),
                widthS: Double(widthS),
                activeSessions: touched ? bucket.activeMax : carriedActive,
                sessionsStarted: bucket.sessionsStarted,
                turnsCompleted: bucket.turnsCompleted,
                errors: bucket.errors,
                firstAudioFromEndMs: bucket.firstAudio.summary
            )
        }
    }

    private mutating func update(at instant: MonotonicInstant, _ change: (inout Bucket, inout Int) -> Void) {
        let index = Self.bucketIndex(atMs: max(0, instant.milliseconds(since: startedAt)))
        if buckets.count <= index {
            buckets.append(contentsOf: repeatElement(Bucket(), count: index + 1 - buckets.count))
        }
        // In place: a copy of the bucket would copy its latency sketch on every turn.
        let before = active
        change(&buckets[index], &active)
        buckets[index].activeMax = max(buckets[index].activeMax, before, active)
        buckets[index].activeAtEnd = active
        buckets[index].touched = true
    }

    /// The bucket an offset from the start falls in.
    static func bucketIndex(atMs offsetMs: Double) -> Int {
        let seconds = Int(offsetMs / 1_000)
        let index = seconds < fineSpanS ? seconds : fineSpanS + (seconds - fineSpanS) / coarseWidthS
        return min(index, maxBuckets - 1)
    }

    /// Start and width, in seconds, of a bucket.
    static func span(ofBucket index: Int) -> (startS: Int, widthS: Int) {
        index < fineSpanS ? (index, 1) : (fineSpanS + (index - fineSpanS) * coarseWidthS, coarseWidthS)
    }

    private struct Bucket: Sendable {
        var touched = false
        var activeMax = 0
        var activeAtEnd = 0
        var sessionsStarted = 0
        var turnsCompleted = 0
        var errors = 0
        var firstAudio = LatencySketch()
    }
}

/// A sparse log-bucketed latency sample: percentiles within 1 % of the true value, memory
/// bounded by the number of distinct buckets (a few hundred for any real spread of latencies).
struct LatencySketch: Sendable {
    private static let growth = 1.01
    private static let logGrowth = 1.0 / log1p(0.01)
    private var counts: [Int: Int] = [:]
    private var count = 0
    private var maxMs = 0.0

    mutating func record(_ valueMs: Double) {
        let value = max(0, valueMs)
        counts[Self.index(of: value), default: 0] += 1
        count += 1
        maxMs = max(maxMs, value)
    }

    /// Adds another sketch's samples (the same bucket edges, so exactly).
    mutating func add(_ other: LatencySketch) {
        guard other.count > 0 else { return }
        counts.merge(other.counts, uniquingKeysWith: +)
        count += other.count
        maxMs = max(maxMs, other.maxMs)
    }

    /// Count, p50, p95 and max; count 0 alone when empty.
    var summary: TimelinePoint.Latency {
        guard count > 0 else { return TimelinePoint.Latency(count: 0) }
        return TimelinePoint.Latency(count: count, p50: percentile(50), p95: percentile(95), max: Self.rounded(maxMs))
    }

    private func percentile(_ percent: Double) -> Double {
        let rank = max(1, Int((percent / 100 * Double(count)).rounded(.up)))
        var seen = 0
        for index in counts.keys.sorted() {
            seen += counts[index] ?? 0
            if seen >= rank { return Self.rounded(min(Self.value(of: index), maxMs)) }
        }
        return Self.rounded(maxMs)
    }

    /// Buckets of 1 % width over value + 1 ms (so 0 ms has a bucket).
    private static func index(of valueMs: Double) -> Int {
        Int((log(valueMs + 1) * logGrowth).rounded(.down))
    }

    /// The upper edge of a bucket, in ms.
    private static func value(of index: Int) -> Double {
        pow(growth, Double(index + 1)) - 1
    }

    private static func rounded(_ valueMs: Double) -> Double {
        (valueMs * 10).rounded() / 10
    }
}
