import Testing

@testable import VoiceLoad

/// The server's events as a `CallAttempt` takes them, on synthetic time: ready, the ends of
/// agent turns (by event and by quiet gap), barge-in signals, tool calls, errors, the replies a
/// dialect times by playback or delay, and the connection's end.
@Suite("Call attempt: server events")
struct CallAttemptEventTests {
    typealias Script = AttemptScript

    @Test("the ready event is recorded once and ends a wait for it")
    func ready() {
        var script = Script()
        _ = script.wait(for: .ready, at: 0)
        #expect(script.receive(.sessionReady, at: 120) == [.ready(at: Script.at(120))] + Script.ends(.met))
        #expect(script.receive(.sessionReady, at: 130).isEmpty)
        #expect(script.attempt.readyAt == Script.at(120))
    }

    @Test("session.started is stamped with its first instant; the row's started_ms counts from the open")
    func started() {
        var script = Script()
        script.attempt.connectStarted(at: Script.at(10))
        _ = script.open(at: 20)
        #expect(script.receive(.sessionStarted(ids: [:]), at: 50).isEmpty)
        _ = script.receive(.sessionStarted(ids: [:]), at: 60)
        #expect(script.attempt.state.sessionStartedAt == Script.at(50))
        var row = SessionRecord(client: 0, iteration: 0)
        script.attempt.fillSessionFigures(of: &row, scheduledAt: nil)
        #expect(row.startedUs == 30_000 && row.connectUs == 10_000 && row.readyUs == nil)
        script.ready(at: 80)
        script.attempt.fillSessionFigures(of: &row, scheduledAt: Script.at(5))
        #expect(row.readyUs == 60_000 && row.sessionSetupTotalUs == 70_000 && row.readyFromScheduledUs == 75_000)
    }

    @Test("greeting: its turn end ends the wait, and greeting_ms counts from ready")
    func greeting() {
        var script = Script()
        script.ready(at: 100)
        _ = script.wait(for: .greeting(graceEndsAt: Script.at(600)), at: 100)
        script.agentAudio(from: 400, count: 5)
        #expect(script.receive(.turnComplete(turnKey: nil), at: 700) == Script.ends(.met))
        #expect(script.attempt.state.tracker.greetingUs == 300_000)
    }

    @Test("agent_turn_end: the answer's end by event hands out its row and ends the wait")
    func agentTurnEnd() throws {
        var script = Script()
        script.ready(at: 0)
        script.utterance(speechStartMs: 1_000, speechEndMs: 1_400)
        _ = script.wait(for: .latestUtteranceRecorded, at: 1_400)
        script.agentAudio(from: 2_100, count: 10)
        let actions = script.receive(.agentSpeechEnded(turnKey: nil), at: 2_600)
        #expect(actions.count == 4)
        guard case .emit(let row) = actions.first else {
            Issue.record("no row: \(actions)")
            return
        }
        #expect(row.label == "ask" && row.outcome == .completed)
        #expect(row.firstAudioFromEndUs == 700_000 && row.firstAudioFromStartUs == 1_100_000)
        #expect(Array(actions.dropFirst()) == Script.ends(.met))
    }

    @Test("an end-of-turn event naming another turn is ignored")
    func otherTurnEnd() {
        var script = Script()
        script.agentAudio(from: 100, count: 3, turnKey: "r2")
        #expect(script.receive(.turnComplete(turnKey: "r1"), at: 300).isEmpty)
        #expect(script.attempt.state.tracker.isAgentSpeaking)
    }

    @Test("a turn whose audio was all silence is a silent_reply when it ends")
    func silentReply() {
        var script = Script()
        script.ready(at: 0)
        script.agentAudio(from: 100, count: 5, rms: 0)
        let actions = script.receive(.turnComplete(turnKey: nil), at: 400)
        #expect(actions.count == 1)
        guard case .recordError(.silentReply, _, let at)? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(at == Script.at(400))
    }

    @Test("audio-gap dialects: the first chunk sets the quiet check, which ends the turn once quiet and played out")
    func quietGap() {
        var script = Script(turnEnd: .audioGap, quietMs: 500)
        script.ready(at: 0)
        _ = script.wait(for: .greeting(graceEndsAt: Script.at(200)), at: 0)
        let first = script.receive(.agentAudio(Script.chunk()), at: 100)
        // The wait's recheck at 200 (the end of the grace period) was set when it began, and stays.
        #expect(first == [.schedule(.quietCheck, at: Script.at(600))])
        // The grace period ends at 200 with the greeting playing: from then on only events end the
        // wait, and the recheck is cancelled once (the first chunk after 200), not per chunk.
        #expect(script.agentAudio(from: 140, count: 4) == [.cancel(.recheck)])
        // End-of-turn events mean nothing on such a dialect.
        #expect(script.receive(.turnComplete(turnKey: nil), at: 300).isEmpty)
        // Not quiet yet at 600 (the last chunk came at 260): looks again at 760.
        #expect(script.fire(.quietCheck, at: 600) == [.schedule(.quietCheck, at: Script.at(760))])
        #expect(script.fire(.quietCheck, at: 760) == Script.ends(.met))
        #expect(script.attempt.state.tracker.greetingUs == 100_000)
    }

    @Test("barge-in: the user's speech over audible agent audio truncates playback at what was heard")
    func userSpeechOverAgent() {
        var script = Script()
        script.ready(at: 0)
        script.agentAudio(from: 1_000, count: 25, everyMs: 0)  // 1 s, playing 1000…2000
        #expect(script.receive(.userSpeechStarted, at: 1_300) == [.send(.playbackTruncated(audioEndMs: 300)), .cancel(.repliesPlayedOut)])
    }

    @Test("barge-in: the user's speech with the agent silent and played out is a normal turn")
    func userSpeechAfterAgent() {
        var script = Script()
        script.agentAudio(from: 1_000, count: 2)
        _ = script.receive(.turnComplete(turnKey: nil), at: 1_100)
        #expect(script.receive(.userSpeechStarted, at: 1_200).isEmpty)
    }

    @Test("barge-in: an interruption flushes the replies waiting for playback")
    func interruptionFlushesReplies() {
        var script = Script()
        script.agentAudio(from: 1_000, count: 25, everyMs: 0)
        let mark = CodecReply(.text("mark"), timing: .whenPlayedOut)
        #expect(
            script.receive([], replies: [mark], at: 1_100) == [
                .cancel(.repliesPlayedOut), .schedule(.repliesPlayedOut, at: Script.at(2_000)),
            ]
        )
        #expect(
            script.receive(.agentInterrupted, at: 1_500) == [
                .send(.playbackTruncated(audioEndMs: 500)), .cancel(.repliesPlayedOut), .sendFrame(.text("mark")),
            ]
        )
        #expect(script.attempt.state.repliesWhenPlayedOut.isEmpty)
    }

    @Test("a late cancel with no command of the caller's waiting is the server's in-band error")
    func cancelNotActive() {
        var script = Script()
        let code = OpenAIRealtimeEventName.cancelNotActiveCode
        #expect(
            script.receive(.cancelNotActive, at: 50) == [
                .recordError(.inBandError(code: code), .inBand(code: code, message: ""), at: Script.at(50))
            ]
        )
    }

    @Test("replies: played-out ones wait for playback, timed ones for their delay, immediate ones go at once")
    func replies() {
        var script = Script()
        script.agentAudio(from: 1_000, count: 5, everyMs: 0)  // plays 1000…1200
        let actions = script.receive(
            [],
            replies: [
                CodecReply(.text("now")), CodecReply(.text("played"), timing: .whenPlayedOut),
                CodecReply(.text("later"), timing: .afterMs(300)),
            ],
            at: 1_100
        )
        #expect(
            actions == [
                .sendFrame(.text("now")), .schedule(.delayedReply(0), at: Script.at(1_400)),
                .cancel(.repliesPlayedOut), .schedule(.repliesPlayedOut, at: Script.at(1_200)),
            ]
        )
        #expect(script.fire(.repliesPlayedOut, at: 1_200) == [.cancel(.repliesPlayedOut), .sendFrame(.text("played"))])
        #expect(script.fire(.delayedReply(0), at: 1_400) == [.sendFrame(.text("later"))])
        #expect(script.fire(.delayedReply(0), at: 1_500).isEmpty)
    }

    @Test("tool calls: a requested call waits for its tool_reply, a withdrawn one is dropped, a server-run one only counted")
    func toolCalls() {
        var script = Script()
        _ = script.wait(for: .toolCallPending, at: 0)
        #expect(script.receive(.toolCall(name: "lookup", status: "called", id: "c0"), at: 50) == [.record(.toolCall)])
        #expect(script.attempt.state.wait != nil)
        #expect(
            script.receive(.toolCall(name: "lookup", status: "requested", id: "c1"), at: 100) == [.record(.toolCall)] + Script.ends(.met)
        )
        _ = script.receive(.toolCall(name: "book", status: "requested", id: "c2"), at: 110)
        #expect(script.receive(.toolCall(name: "lookup", status: "cancelled", id: "c1"), at: 120).isEmpty)
        #expect(script.attempt.state.pendingToolCalls == [CallAttempt.ToolCall(name: "book", id: "c2")])
    }

    @Test("wait: tool_call matches only the named tool's call after the step began")
    func toolCallEvent() {
        var script = Script()
        _ = script.wait(for: .event(EventMatch(kind: .toolCall, toolName: "book")), at: 0)
        #expect(script.receive(.toolCall(name: "lookup", status: "requested", id: "c1"), at: 10) == [.record(.toolCall)])
        #expect(script.receive(.toolCall(name: "book", status: "requested", id: "c2"), at: 20) == [.record(.toolCall)] + Script.ends(.met))
    }

    @Test("errors: before ready the session is rejected; after it a fatal one fails it, another is counted")
    func errors() {
        var script = Script()
        _ = script.wait(for: .ready, at: 0)
        let rejected = SessionFailure(.readyRejected, .inBand(code: "bad", message: "no"))
        #expect(
            script.receive(.error(code: "bad", message: "no", fatal: false), at: 10) == [.stopMicrophone] + Script.ends(.failed(rejected))
        )

        var ready = Script()
        ready.ready(at: 0)
        #expect(
            ready.receive(.error(code: "x", message: "m", fatal: false), at: 10) == [
                .recordError(.inBandError(code: "x"), .inBand(code: "x", message: "m"), at: Script.at(10))
            ]
        )
        #expect(ready.receive(.error(code: "y", message: "m", fatal: true), at: 20) == [.stopMicrophone])
        #expect(ready.attempt.failure == SessionFailure(.inBandError(code: "y"), .inBand(code: "y", message: "m")))
    }

    @Test("errors: on a dialect ready at the open, an error before any event is only counted")
    func errorsReadyOnOpen() {
        var script = Script(readySignal: .onOpen)
        #expect(script.receive(.error(code: "x", message: "m", fatal: false), at: 10).count == 1)
        #expect(script.attempt.failure == nil)
    }

    @Test("malformed frames are errors with the frame, unknown events are counted with it")
    func malformedAndUnknown() {
        var script = Script()
        #expect(
            script.receive(.malformed(reason: "bad json"), at: 10) == [
                .recordError(.malformedFrame, .frame(.text("frame"), reason: "bad json"), at: Script.at(10))
            ]
        )
        #expect(script.receive(.unknown(type: "odd"), at: 20) == [.record(.unknownEvent(type: "odd", frame: .text("frame")))])
    }

    @Test("a server latency figure is taken once per turn, and only for an answer")
    func serverLatency() {
        var script = Script()
        script.ready(at: 0)
        script.utterance(speechStartMs: 100, speechEndMs: 400)
        script.agentAudio(from: 900, count: 2)
        let name = MetricName.finalizeMs
        #expect(
            script.receive(.serverLatency(name: name.rawValue, valueUs: 12_500), at: 1_000) == [.record(.metric(name, microseconds: 12_500))]
        )
        #expect(script.receive(.serverLatency(name: name.rawValue, valueUs: 13_000), at: 1_010).isEmpty)
    }

    @Test("speech-to-text: a result's position latency counts from where its audio ends in the stream")
    func positionLatency() {
        var script = Script()
        script.openMicrophone(at: 0)
        let result = SpeechResult(text: "hello", isFinal: true, speechFinal: false, startS: 0.5, durationS: 1)
        #expect(script.receive(.speechResult(result), at: 1_800) == [.record(.metric(.sttFinalLatencyMs, microseconds: 300_000))])
        let early = script.receive(.speechResult(result), at: 1_200)
        guard case .recordError(.resultBeforeAudio, _, _)? = early.first else {
            Issue.record("\(early)")
            return
        }
    }

    @Test("the finalize result is stamped once, after the request, and its met wait measures finalize_ms")
    func finalized() {
        var script = Script()
        #expect(script.attempt.finalizeRequested(at: Script.at(100)) == [.send(.commit)])
        _ = script.wait(for: .finalized, at: 100)
        let result = SpeechResult(text: "", isFinal: true, speechFinal: false, startS: 0, durationS: 0, fromFinalize: true)
        let finalizeMs = Script.Action.record(.metric(.finalizeMs, microseconds: 150_000))
        #expect(script.receive(.speechResult(result), at: 250) == [finalizeMs] + Script.ends(.met))
        _ = script.receive(.speechResult(result), at: 300)
        #expect(script.attempt.state.finalizedAt == Script.at(250))
    }

    @Test("the connection's end fails the session unless the caller hangs up, and ends a wait for the session's end")
    func connectionEnded() {
        let closed = SessionFailure(.closedByServer(code: 1011), .close(code: 1011, reason: "bye"))
        var script = Script()
        _ = script.wait(for: .ready, at: 0)
        #expect(
            script.attempt.connectionEnded(closed, at: Script.at(50), now: Script.at(51)) == [.stopMicrophone]
                + Script.ends(.failed(closed))
        )

        var hangingUp = Script()
        hangingUp.hangUp()
        _ = hangingUp.wait(for: .sessionEnded, at: 0)
        #expect(hangingUp.attempt.connectionEnded(closed, at: Script.at(50), now: Script.at(51)) == Script.ends(.met))
        #expect(hangingUp.attempt.state.sessionEndedAt == Script.at(50) && hangingUp.attempt.failure == nil)
    }
}
