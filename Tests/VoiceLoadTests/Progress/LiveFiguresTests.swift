import Testing
import WSCore

@testable import VoiceLoad

@Suite("Live figures")
struct LiveFiguresTests {
    private let start = ReportFixtures.start
    private func at(_ seconds: Double) -> MonotonicInstant { ReportFixtures.at(seconds) }

    private func turn(client: Int, outcome: TurnOutcome = .completed, firstAudioMs: Int64?) -> TurnRecord {
        TurnRecord(
            client: client,
            iteration: 0,
            turn: 1,
            label: "a",
            outcome: outcome,
            speechStartOffsetUs: 300_000,
            speechEndOffsetUs: 1_800_000,
            firstAudioFromEndUs: firstAudioMs.map { $0 * 1_000 }
        )
    }

    /// Three sessions: one completed with an answer at 1.5 s, one failed, one still open with an
    /// answer at 11.5 s; a connect error; four frames sent.
    private func recorder() -> Recorder {
        let recorder = Recorder(startedAt: start)
        for client in 0..<3 { recorder.sessionStarted(client: client, at: at(0.1 * Double(client))) }
        recorder.recordTurn(turn(client: 0, firstAudioMs: 500), at: at(1.5))
        recorder.recordSession(SessionRecord(client: 0, iteration: 0), at: at(2))
        var failed = SessionRecord(client: 1, iteration: 0)
        failed.outcome = .failed
        recorder.recordError(.connectRefused, at: at(2.5), client: 1, iteration: 0, detail: .test("127.0.0.1:9: refused"))
        recorder.recordSession(failed, at: at(2.5))
        recorder.recordTurn(turn(client: 2, outcome: .timedOut, firstAudioMs: nil), at: at(9))
        recorder.recordTurn(turn(client: 2, firstAudioMs: 700), at: at(11.5))
        for lagUs: Int64 in [1_000, 1_000, 1_000, 2_000] { recorder.recordFrameSent(lagUs: lagUs) }
        return recorder
    }

    @Test("counts, active sessions, errors by class, frames and send-lag p99 from the recorder")
    func counts() {
        let figures = recorder().liveFigures(at: at(12))
        #expect(figures.elapsedMs == 12_000)
        #expect(figures.activeSessions == 1)
        #expect(figures.sessionsStarted == 3)
        #expect(figures.sessionsCompleted == 1 && figures.sessionsFailed == 1 && figures.sessionsEnded == 2)
        #expect(figures.turnsCompleted == 2)
        #expect(figures.errorsByClass == ["connect_refused": 1] && figures.errors == 1)
        #expect(figures.framesSent == 4)
        #expect(figures.sendLagP99Ms == 2)
    }

    @Test("first-audio percentiles cover the turns that finished in the last 10 s only")
    func recentWindow() {
        let recorder = recorder()
        let late = recorder.liveFigures(at: at(12))
        #expect(late.firstAudioP50Ms == 700 && late.firstAudioP95Ms == 700)
        let early = recorder.liveFigures(at: at(5))
        #expect(early.firstAudioP50Ms == 500)
        let quiet = recorder.liveFigures(at: at(40))
        #expect(quiet.firstAudioP50Ms == nil && quiet.firstAudioP95Ms == nil)
    }

    @Test("an empty run: zeros, and no latency rather than 0 ms")
    func empty() {
        let figures = Recorder(startedAt: start).liveFigures(at: at(0.5))
        #expect(figures == LiveFigures(elapsedMs: 500))
        #expect(figures.sendLagP99Ms == nil)
    }

    @Test("the warm-up is counted live, though the report leaves it out")
    func warmup() {
        let recorder = Recorder(startedAt: start, warmupEndsAt: at(5))
        recorder.sessionStarted(client: 0, at: at(1))
        var earlyTurn = turn(client: 0, firstAudioMs: 600)
        earlyTurn.speechStartAt = at(1.5)
        recorder.recordTurn(earlyTurn, at: at(3))
        recorder.recordSession(SessionRecord(client: 0, iteration: 0), at: at(4))
        let figures = recorder.liveFigures(at: at(6))
        #expect(figures.sessionsStarted == 1 && figures.sessionsCompleted == 1 && figures.turnsCompleted == 1)
        #expect(figures.firstAudioP50Ms == 600)
        let snapshot = recorder.snapshot()
        #expect(snapshot.sessionsStarted == 0 && snapshot.sessionsCompleted == 0)
    }
}
