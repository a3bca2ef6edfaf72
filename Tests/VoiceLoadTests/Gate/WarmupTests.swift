import Foundation
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Warm-up")
struct WarmupTests {
    @Test("sessions and turns that start within the warm-up are left out, and the report says so")
    func excluded() {
        let warmupEndsAt = MonotonicInstant.now().advanced(byMilliseconds: 3_600_000)
        let recorder = Recorder(warmupEndsAt: warmupEndsAt)
        recorder.sessionStarted(client: 0, iteration: 0)
        var session = SessionRecord(client: 0, iteration: 0)
        session.connectUs = 5_000
        recorder.recordSession(session)
        var early = GateFixtures.turn(700)
        early.speechStartAt = warmupEndsAt.advanced(byMilliseconds: -1)
        var late = GateFixtures.turn(900)
        late.speechStartAt = warmupEndsAt.advanced(byMilliseconds: 1)
        var untimed = GateFixtures.turn(800)
        untimed.speechStartAt = nil
        for turn in [early, late, untimed] { recorder.recordTurn(turn) }
        recorder.record(.sttFinalLatencyMs, microseconds: 1_000)

        let snapshot = recorder.snapshot()
        #expect(snapshot.warmupTotals.sessionsStarted == 1)
        #expect(snapshot.warmupTotals.turns == 2)
        #expect(snapshot.sessionsStarted == 0)
        #expect(snapshot.histograms[.connectMs] == nil)
        #expect(snapshot.histograms[.sttFinalLatencyMs] == nil)
        #expect(snapshot.histograms[.firstAudioFromEndMs]?.count == 1)

        var context = RunContext(
            scenario: Scenario(name: "demo", sourcePath: "demo.yaml", steps: [.connect(timeoutMs: 1)]),
            load: LoadProfile(clients: 1),
            redactedURL: "ws://127.0.0.1:1/",
            dialect: "datagrid",
            frameMs: 40,
            simulator: nil,
            startedAt: Date(timeIntervalSince1970: 0),
            endedAt: Date(timeIntervalSince1970: 5),
            cpuSeconds: 0,
            cores: 2
        )
        #expect(RunReport(context: context, snapshot: snapshot).warmup == nil)
        context.warmupMs = 2_500
        let report = RunReport(context: context, snapshot: snapshot)
        #expect(report.warmup == WarmupReport(durationS: 2.5, excludedSessions: 1, excludedTurns: 2))
        #expect(report.turns == ["completed": 1])
    }

    @Test("frames sent within the warm-up count as sent but stay out of send_lag_ms")
    func warmupFrames() {
        let warmupEndsAt = MonotonicInstant(nanoseconds: 10_000_000_000)
        let recorder = Recorder(startedAt: MonotonicInstant(nanoseconds: 0), warmupEndsAt: warmupEndsAt)
        recorder.recordFrameSent(lagUs: 9_000, sentAt: warmupEndsAt.advanced(byMilliseconds: -1))
        recorder.recordFrameSent(lagUs: 300, sentAt: warmupEndsAt)
        recorder.recordFrameSent(lagUs: 500, sentAt: warmupEndsAt.advanced(byMilliseconds: 20))
        let snapshot = recorder.snapshot()
        #expect(snapshot.framesSent == 3)
        #expect(snapshot.histograms[.sendLagMs]?.count == 2)
        #expect(snapshot.histograms[.sendLagMs]?.summary?.maxMs == 0.5)

        let noWarmup = Recorder()
        noWarmup.recordFrameSent(lagUs: 9_000, sentAt: MonotonicInstant(nanoseconds: 1))
        #expect(noWarmup.snapshot().histograms[.sendLagMs]?.count == 1)
    }
}
