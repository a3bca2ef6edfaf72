import Testing
import VoiceLoad
import WSCore

@Suite("Outages: a stretch in which every attempt failed before ready, and the recovery")
struct OutageTrackerTests {
    private func at(_ ms: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms) * 1_000_000) }

    @Test("failures over 3 s, then an attempt that gets ready: one outage, ending when that attempt started")
    func outageAndRecovery() throws {
        var tracker = OutageTracker()
        tracker.attemptEnded(startedAt: at(900), endedAt: at(1_000), failureBeforeReady: nil)
        tracker.ready(attemptStartedAt: at(900), at: at(1_000))
        for startMs in stride(from: Int64(2_000), through: 5_000, by: 500) {
            tracker.attemptEnded(
                startedAt: at(startMs),
                endedAt: at(startMs + 2),
                failureBeforeReady: startMs == 3_000 ? "connect_refused" : "upgrade_rejected_503"
            )
        }
        // Let in before the outage, ready during it: says nothing of the endpoint since.
        tracker.ready(attemptStartedAt: at(1_950), at: at(2_100))
        tracker.ready(attemptStartedAt: at(5_200), at: at(5_300))
        let outage = try #require(tracker.outages.first)
        #expect(tracker.outages.count == 1)
        #expect(outage.startedAt == at(2_000) && outage.endedAt == at(5_200))
        #expect(outage.recoveryMs == 100)
        #expect(outage.attempts == 7 && outage.errors == ["upgrade_rejected_503": 6, "connect_refused": 1])
        #expect(tracker.attempts == 8 && tracker.failedBeforeReady == 7)
        let report = OutageReport(outage, runStartedAt: at(0), runDurationS: 9)
        #expect(report.startS == 2 && report.endS == 5.2 && report.durationS == 3.2)
        #expect(
            report.text
                == "endpoint unavailable 2.0 s → 5.2 s (3.2 s, 7 attempts, upgrade_rejected_503 6, connect_refused 1); the first session was ready 100.0 ms after"
        )
    }

    @Test("a few failures, or failures within a second, are no outage")
    func noOutage() {
        var tracker = OutageTracker()
        tracker.attemptEnded(startedAt: at(0), endedAt: at(5), failureBeforeReady: "connect_refused")
        tracker.attemptEnded(startedAt: at(2_000), endedAt: at(2_005), failureBeforeReady: "connect_refused")
        tracker.ready(attemptStartedAt: at(2_100), at: at(2_200))
        for startMs: Int64 in [3_000, 3_100, 3_200, 3_300] {
            tracker.attemptEnded(startedAt: at(startMs), endedAt: at(startMs + 5), failureBeforeReady: "connect_refused")
        }
        tracker.ready(attemptStartedAt: at(3_400), at: at(3_500))
        #expect(tracker.outages.isEmpty)
        #expect(tracker.failedBeforeReady == 6)
    }

    @Test("an outage still going when the run ends has no end and no recovery")
    func openOutage() throws {
        var tracker = OutageTracker()
        for startMs in stride(from: Int64(1_000), through: 4_000, by: 1_000) {
            tracker.attemptEnded(startedAt: at(startMs), endedAt: at(startMs + 1), failureBeforeReady: "connect_refused")
        }
        let outage = try #require(tracker.outages.first)
        #expect(outage.endedAt == nil && outage.recoveryMs == nil && outage.attempts == 4)
        let report = OutageReport(outage, runStartedAt: at(0), runDurationS: 6)
        #expect(report.durationS == 5)
        #expect(report.text == "endpoint unavailable 1.0 s → the run's end (5.0 s, 4 attempts, connect_refused)")
    }
}
