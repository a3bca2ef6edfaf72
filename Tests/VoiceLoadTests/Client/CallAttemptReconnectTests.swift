import Testing

@testable import VoiceLoad

/// What ends an attempt early, as a `CallAttempt` decides it on synthetic time: whether a
/// failure is retried and after what backoff, and what the run's wind-down does to a waiting
/// step, a hang-up under way and a connection being opened.
@Suite("Call attempt: reconnects and wind-down")
struct CallAttemptReconnectTests {
    typealias Script = AttemptScript

    static let policy = ReconnectPolicy(attempts: 5, backoffMs: 100, maxBackoffMs: 300)
    static let lost = SessionFailure(.connectionLost, .text("reset"))

    /// The caller of the next attempt, as `VirtualClient` makes it after a reconnect.
    private func nextAttempt(after script: Script) -> Script {
        Script(attempts: script.attempt.attemptsAfterThis)
    }

    @Test("a retried failure waits the backoff, doubled for each next reconnect and capped")
    func backoff() {
        var script = Script(reconnect: Self.policy)
        var backoffsMs: [Int] = []
        for _ in 0..<4 {
            guard case .reconnect(let backoffMs) = script.attempt.afterFailure(Self.lost) else {
                Issue.record("no reconnect after \(backoffsMs)")
                return
            }
            backoffsMs.append(backoffMs)
            script = nextAttempt(after: script)
        }
        #expect(backoffsMs == [100, 200, 300, 300])
        #expect(script.attempt.attempts.number == 5 && script.attempt.attempts.reconnectsMade == 4)
    }

    @Test("once the attempts are spent the failure stands, as exhausted")
    func exhausted() {
        let first = Script(reconnect: ReconnectPolicy(attempts: 2, backoffMs: 100, maxBackoffMs: 300))
        let script = Script(attempts: first.attempt.attemptsAfterThis.next(afterUtterances: 0))
        #expect(script.attempt.attempts.reconnectsMade == 2)
        #expect(script.attempt.afterFailure(Self.lost) == .giveUp(exhausted: true))
    }

    @Test("401 and 403 are never retried, nor vload's own faults; other rejections are")
    func neverRetried() {
        let script = Script(reconnect: Self.policy)
        for errorClass in [
            ErrorClass.upgradeRejected(status: 401), .upgradeRejected(status: 403), .restRejected(status: 401),
            .restRejected(status: 403), .generatorError, .toolReplyMissing,
        ] {
            #expect(script.attempt.afterFailure(SessionFailure(errorClass, .text(""))) == .giveUp(exhausted: false))
        }
        #expect(script.attempt.afterFailure(SessionFailure(.upgradeRejected(status: 503), .text(""))) == .reconnect(afterMs: 100))
    }

    @Test("without a reconnect policy every failure stands")
    func noPolicy() {
        #expect(Script().attempt.afterFailure(Self.lost) == .giveUp(exhausted: false))
    }

    @Test("the next attempt numbers its turns on after the earlier attempts' utterances")
    func turnsNumberedOn() {
        var script = Script(reconnect: Self.policy)
        script.utterance("one", speechStartMs: 0, speechEndMs: 400)
        script.utterance("two", speechStartMs: 1_000, speechEndMs: 1_400)
        var next = nextAttempt(after: script)
        #expect(next.attempt.attempts.utterancesBefore == 2 && next.attempt.attempts.number == 2)
        next.utterance("three", speechStartMs: 0, speechEndMs: 400)
        #expect(next.attempt.attemptsAfterThis.utterancesBefore == 3)
    }

    @Test("no reconnect while the run winds down")
    func noReconnectWindingDown() {
        var script = Script(reconnect: Self.policy)
        _ = script.attempt.windDown(by: Script.at(5_000))
        #expect(script.attempt.afterFailure(Self.lost) == .giveUp(exhausted: false))
    }

    @Test("a wind-down during a wait ends the step woundDown; no step or wait starts after it")
    func windDownDuringWait() {
        var script = Script()
        _ = script.open(at: 0)
        _ = script.wait(for: .ready, at: 10)
        #expect(script.attempt.windDown(by: Script.at(5_000)) == Script.ends(.woundDown))
        #expect(script.attempt.windDownDeadline == Script.at(5_000))
        #expect(throws: SessionWoundDown.self) { try script.attempt.checkStepMayStart() }
        #expect(script.wait(for: .ready, at: 20) == [.endStep(.woundDown)])
        #expect(script.attempt.state.wait == nil)
    }

    @Test("a wind-down while the connection is being opened abandons it")
    func windDownWhileConnecting() {
        var script = Script()
        #expect(script.attempt.windDown(by: Script.at(5_000)) == [.abandonConnect])
    }

    @Test("during a hang-up the wait is cut at the deadline, which a later wind-down only brings forward")
    func windDownDuringHangUp() {
        var script = Script()
        _ = script.open(at: 0)
        script.hangUp()
        _ = script.wait(for: .sessionEnded, timeoutMs: 5_000, at: 0)
        #expect(script.attempt.windDown(by: Script.at(2_000)) == [.schedule(.stepTimeout, at: Script.at(2_000))])
        #expect(script.attempt.windDown(by: Script.at(4_000)) == [.schedule(.stepTimeout, at: Script.at(2_000))])
        #expect(script.attempt.windDownDeadline == Script.at(2_000))
        #expect(script.attempt.windDown(by: Script.at(1_000)) == [.schedule(.stepTimeout, at: Script.at(1_000))])
        #expect(script.attempt.windDownDeadline == Script.at(1_000))
        #expect(script.attempt.state.wait != nil)
    }

    @Test("winding down, the hang-up gets what is left of the grace period, if anything")
    func hangUpTime() {
        var script = Script()
        #expect(script.attempt.windDownHangUpMs(at: Script.at(0)) == nil)
        _ = script.attempt.windDown(by: Script.at(2_000))
        #expect(script.attempt.windDownHangUpMs(at: Script.at(500)) == 1_500)
        #expect(script.attempt.windDownHangUpMs(at: Script.at(2_000)) == nil)
        #expect(script.attempt.windDownHangUpMs(at: Script.at(2_500)) == nil)
    }

    @Test("after a failure a wait ends at once with it, and no step starts")
    func waitAfterFailure() {
        var script = Script()
        _ = script.attempt.fail(Self.lost)
        #expect(script.wait(for: .ready, at: 0) == [.endStep(.failed(Self.lost))])
        #expect(throws: SessionFailure.self) { try script.attempt.checkStepMayStart() }
    }
}
