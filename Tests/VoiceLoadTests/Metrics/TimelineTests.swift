import Testing
import WSCore

@testable import VoiceLoad

@Suite("Timeline")
struct TimelineTests {
    private let start = ReportFixtures.start
    private func at(_ seconds: Double) -> MonotonicInstant { ReportFixtures.at(seconds) }

    @Test("per-second buckets: sessions open carry over empty buckets, turns and errors land where they happened")
    func buckets() {
        var timeline = Timeline(startedAt: start)
        timeline.sessionStarted(at: at(0.1))
        timeline.sessionStarted(at: at(0.6))
        timeline.turnFinished(at: at(1.5), completed: true, firstAudioFromEndUs: 300_000)
        timeline.turnFinished(at: at(1.7), completed: false, firstAudioFromEndUs: nil)
        timeline.error(at: at(4.2))
        timeline.sessionEnded(at: at(4.3))
        timeline.sessionEnded(at: at(5.0))
        let points = timeline.points
        #expect(points.map(\.tS) == [0, 1, 2, 3, 4, 5])
        #expect(points.map(\.activeSessions) == [2, 2, 2, 2, 2, 1])
        #expect(points.map(\.sessionsStarted) == [2, 0, 0, 0, 0, 0])
        #expect(points.map(\.turnsCompleted) == [0, 1, 0, 0, 0, 0])
        #expect(points.map(\.errors) == [0, 0, 0, 0, 1, 0])
        #expect(points[1].firstAudioFromEndMs.count == 1)
        #expect(points[2].firstAudioFromEndMs == TimelinePoint.Latency(count: 0))
    }

    @Test("one-second buckets for the first hour, ten-second buckets after, a bounded count")
    func coarsening() {
        #expect(Timeline.bucketIndex(atMs: 3_599_999) == 3_599)
        #expect(Timeline.bucketIndex(atMs: 3_600_000) == 3_600)
        #expect(Timeline.bucketIndex(atMs: 3_609_999) == 3_600)
        #expect(Timeline.bucketIndex(atMs: 3_610_000) == 3_601)
        #expect(Timeline.bucketIndex(atMs: 1e12) == Timeline.maxBuckets - 1)
        let span = Timeline.span(ofBucket: 3_601)
        #expect(span.startS == 3_610 && span.widthS == 10)
        var timeline = Timeline(startedAt: start)
        timeline.error(at: at(10 * 86_400))
        #expect(timeline.points.count == Timeline.maxBuckets)
        #expect(timeline.points.last?.errors == 1)
    }

    @Test("bucket percentiles are within 1 % of the exact values")
    func percentiles() throws {
        var sketch = LatencySketch()
        for value in 1...1_000 { sketch.record(Double(value)) }
        let summary = sketch.summary
        #expect(summary.count == 1_000)
        let p50 = try #require(summary.p50)
        let p95 = try #require(summary.p95)
        #expect(abs(p50 - 500) <= 5.1)
        #expect(abs(p95 - 950) <= 9.6)
        #expect(summary.max == 1_000)
    }

    @Test("the recorder keeps the timeline and the report carries it")
    func reportTimeline() {
        let report = ReportFixtures.richReport()
        #expect(report.timeline.first?.sessionsStarted == 2)
        #expect(report.timeline.map(\.turnsCompleted).reduce(0, +) == 11)
        #expect(report.timeline.map(\.errors).reduce(0, +) == 1)
        #expect(report.timeline.map(\.activeSessions).max() == 3)
    }
}
