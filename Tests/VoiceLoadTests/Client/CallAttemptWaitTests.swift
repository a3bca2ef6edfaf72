import Testing

@testable import VoiceLoad

/// The waiting step of a `CallAttempt` on synthetic time: when each condition holds, the
/// timers it sets, and how a wait ends (met, timed out, failed, wound down).
@Suite("Call attempt: waiting steps")
struct CallAttemptWaitTests {
    typealias Script = AttemptScript

    @Test("a condition that holds already goes on at once and sets no timer")
    func metAtOnce() {
        var script = Script()
        script.ready(at: 100)
        #expect(script.wait(for: .ready, at: 200) == [.endStep(.met)])
        #expect(script.attempt.state.wait == nil)
    }

    @Test("a wait for ready sets its timeout, and the ready event ends it")
    func ready() {
        var script = Script()
        // Ready comes by event only: no recheck timer, and a check before it changes nothing.
        #expect(script.wait(for: .ready, timeoutMs: 5_000, at: 0) == [.schedule(.stepTimeout, at: Script.at(5_000))])
        #expect(script.check(at: 50).isEmpty)
        script.ready(at: 100)
        #expect(script.check(at: 100) == Script.ends(.met))
        #expect(script.attempt.state.wait == nil)
    }

    @Test("greeting: with no agent audio the wait ends at the end of the grace period")
    func greetingNone() {
        var script = Script()
        script.ready(at: 0)
        let actions = script.wait(for: .greeting(graceEndsAt: Script.at(500)), timeoutMs: 10_000, at: 0)
        #expect(actions == [.schedule(.stepTimeout, at: Script.at(10_000)), .schedule(.recheck, at: Script.at(500))])
        #expect(script.fire(.recheck, at: 500) == Script.ends(.met))
    }

    @Test("greeting: one still playing at the end of the grace period is waited for until its turn ends")
    func greetingPlaying() {
        var script = Script()
        script.ready(at: 0)
        _ = script.wait(for: .greeting(graceEndsAt: Script.at(500)), at: 0)
        #expect(script.agentAudio(from: 300, count: 1).isEmpty)  // the recheck at 500, set at the start, stays
        script.agentAudio(from: 340, count: 4)
        // The grace period is over but the agent speaks: events decide from now on (the timer
        // that fired is set no more, so nothing is cancelled).
        #expect(script.fire(.recheck, at: 500).isEmpty)
        #expect(script.attempt.state.wait != nil)
        #expect(script.receive(.turnComplete(turnKey: nil), at: 900) == Script.ends(.met))
        #expect(script.attempt.state.tracker.greetingUs == 300_000)
    }

    @Test("agent_turn_end that runs out with the turn's audio stopped is overdue (missing_turn_end)")
    func turnEndOverdue() {
        var script = Script(quietMs: 500)
        script.ready(at: 0)
        script.utterance(speechStartMs: 100, speechEndMs: 400)
        _ = script.wait(for: .latestUtteranceRecorded, step: "wait", timeoutMs: 3_000, at: 0)
        script.agentAudio(from: 1_000, count: 5)  // the last chunk arrives at 1160
        #expect(
            script.fire(.stepTimeout, at: 3_000) == [
                .cancel(.recheck), .endStep(.timedOut(StepTimedOut(step: "wait", turnEndOverdueUs: 1_840_000))),
            ]
        )
    }

    @Test("agent_turn_end that runs out while audio still arrives is a plain timeout")
    func turnEndStillSpeaking() {
        var script = Script(quietMs: 500)
        script.utterance(speechStartMs: 100, speechEndMs: 400)
        _ = script.wait(for: .latestUtteranceRecorded, timeoutMs: 3_000, at: 0)
        script.agentAudio(from: 2_800, count: 5)
        #expect(script.fire(.stepTimeout, at: 3_000) == [.cancel(.recheck), .endStep(.timedOut(StepTimedOut(step: "wait")))])
    }

    @Test("a timeout that fires after the wait ended does nothing")
    func staleTimeout() {
        var script = Script()
        _ = script.wait(for: .ready, at: 0)
        script.ready(at: 10)
        _ = script.check(at: 10)
        #expect(script.fire(.stepTimeout, at: 10_000).isEmpty)
        #expect(script.fire(.recheck, at: 10_000).isEmpty)
    }

    @Test("heard: the wait ends when the playback cursor has played the target")
    func heard() {
        var script = Script()
        script.agentAudio(from: 1_000, count: 25, everyMs: 0)  // 1 s of audio at 1000: plays 1000…2000
        let actions = script.wait(for: .heard(targetUs: 300_000), timeoutMs: 5_000, at: 1_100)
        #expect(actions == [.schedule(.stepTimeout, at: Script.at(6_100)), .schedule(.recheck, at: Script.at(1_300))])
        #expect(script.fire(.recheck, at: 1_300) == Script.ends(.met))
    }

    @Test("heard: a turn that ended and played out before the target is never heard that far")
    func heardTooShort() {
        var script = Script()
        script.agentAudio(from: 1_000, count: 2)  // 80 ms
        _ = script.receive(.turnComplete(turnKey: nil), at: 1_050)
        #expect(
            script.wait(for: .heard(targetUs: 300_000), at: 1_200) == [.schedule(.stepTimeout, at: Script.at(11_200))]
        )
    }

    @Test("quiet: counted from the step's start, the last agent audio and the end of its playback")
    func quiet() {
        var script = Script()
        _ = script.wait(for: .quiet(ms: 1_000, since: Script.at(0)), at: 0)
        // Each chunk moves the moment on: the last (at 360, played out at 400) sets it for 1400.
        #expect(script.agentAudio(from: 200, count: 5).last == .schedule(.recheck, at: Script.at(1_400)))
        #expect(script.check(at: 360).isEmpty)  // set for 1400 already
        #expect(script.fire(.recheck, at: 1_400) == Script.ends(.met))
    }

    @Test("a pause ends at its instant")
    func until() {
        var script = Script()
        #expect(script.wait(for: .until(Script.at(700)), at: 0).last == .schedule(.recheck, at: Script.at(700)))
        #expect(script.fire(.recheck, at: 700) == Script.ends(.met))
    }

    @Test("tool_reply waits for a pending tool call; event waits count only events after the step began")
    func toolCallAndEvent() {
        var script = Script()
        _ = script.wait(for: .toolCallPending, at: 0)
        let call = NormalizedEvent.toolCall(name: "lookup", status: "requested", id: "c1")
        #expect(script.receive(call, at: 10) == [.record(.toolCall)] + Script.ends(.met))
        _ = script.wait(for: .event(EventMatch(kind: .transcript)), at: 12)
        let transcript = NormalizedEvent.transcript(role: "user", text: "hi", isFinal: true)
        #expect(script.receive(transcript, at: 15) == Script.ends(.met))  // an earlier step's event
        #expect(script.attempt.state.awaitedEventArrived)
        _ = script.wait(for: .event(EventMatch(kind: .transcript)), at: 20)
        #expect(script.attempt.state.awaitedEventArrived == false && script.attempt.state.wait != nil)
    }

    @Test("a failure stops the microphone and wakes the waiting step with the first reason")
    func failure() {
        var script = Script()
        script.openMicrophone(at: 0)
        _ = script.wait(for: .ready, at: 0)
        let first = SessionFailure(.readyRejected, .text("first"))
        #expect(script.attempt.fail(first) == [.stopMicrophone] + Script.ends(.failed(first)))
        #expect(script.attempt.state.microphone == nil)
        #expect(script.attempt.fail(SessionFailure(.connectionLost, .text("second"))) == [.stopMicrophone])
        #expect(script.attempt.failure == first)
    }

    @Test("a wind-down wakes the waiting step; while hanging up it cuts the wait at the deadline")
    func windDown() {
        var script = Script()
        _ = script.wait(for: .sessionEnded, timeoutMs: 5_000, at: 0)
        #expect(script.attempt.cutWait(at: Script.at(8_000)).isEmpty)
        #expect(script.attempt.cutWait(at: Script.at(2_000)) == [.schedule(.stepTimeout, at: Script.at(2_000))])
        #expect(script.attempt.endWait(.woundDown) == Script.ends(.woundDown))
        #expect(script.attempt.endWait(.woundDown).isEmpty)
    }

    @Test("a clip being sent holds the wait until its last frame")
    func clipSent() throws {
        var script = Script()
        #expect(script.wait(for: .clipSent, at: 0) == [.endStep(.met)])  // no stream open
    }
}
