import Testing
import WSCore

@testable import VoiceLoad

/// Instants on a made-up timeline, in milliseconds from an arbitrary origin.
private func ms(_ value: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(value) * 1_000_000)
}

private func chunk(rms: Float) -> AgentAudioChunk {
    AgentAudioChunk(byteCount: 1_920, durationUs: 40_000, rmsLevel: rms)
}

private func tracker(_ signal: TurnEndSignal, quietMs: Int64 = 500) -> TurnTracker {
    var configuration = TurnTracker.Configuration()
    configuration.turnEndSignal = signal
    configuration.quietMs = quietMs
    return TurnTracker(configuration: configuration, client: 0, iteration: 0)
}

@Suite("TurnTracker: silent replies and missing turn ends")
struct TurnTrackerFaultTests {
    @Test("a greeting of unvoiced audio that ends by event is a silent reply", arguments: [TurnEndSignal.event, .audioGap])
    func silentGreeting(signal: TurnEndSignal) throws {
        var turns = tracker(signal)
        turns.sessionReady(at: ms(0))
        turns.agentAudio(chunk(rms: 0.002), at: ms(100))
        turns.agentAudio(chunk(rms: 0.0049), at: ms(140))
        let early = turns.takeSilentReplies()
        #expect(early.isEmpty)  // not over yet
        if signal == .event {
            let record = turns.agentTurnEnded(at: ms(300))
            #expect(record == nil)
        } else {
            let quiet = turns.checkQuiet(at: ms(640))
            #expect(quiet.ended)
        }
        let replies = turns.takeSilentReplies()
        let reply = try #require(replies.first)
        #expect(reply.label == nil && reply.turnNumber == 1 && reply.audioUs == 80_000 && reply.peakRms == 0.0049)
        #expect(reply.endedAt == (signal == .event ? ms(300) : ms(140)))
        #expect(reply.description == "greeting (agent turn 1): 80 ms of audio, none voiced (peak RMS 0.0049)")
        let again = turns.takeSilentReplies()
        #expect(again.isEmpty)  // taken once
        #expect(turns.greetingUs == 100_000)  // the turn's measurements stay as they are
    }

    @Test("a reply of unvoiced audio is a silent reply; its row stays as it is")
    func silentReply() throws {
        var turns = tracker(.event)
        turns.sessionReady(at: ms(0))
        _ = turns.utteranceStarted(label: "ask", micOpenAt: ms(1_000), speechStartUs: 0, speechEndUs: 500_000)
        turns.agentAudio(chunk(rms: 0), at: ms(2_000))
        let ended = turns.agentTurnEnded(at: ms(2_100))
        let row = try #require(ended)
        #expect(row.outcome == .completed && row.firstAudioFromEndUs == 500_000 && row.firstVoicedAudioFromEndUs == nil)
        let replies = turns.takeSilentReplies()
        let reply = try #require(replies.first)
        #expect(reply.label == "ask" && reply.turnNumber == 1)
        #expect(reply.description == "reply to 'ask' (agent turn 1): 40 ms of audio, none voiced (peak RMS 0.0)")
    }

    @Test("a turn with one voiced chunk, an interrupted turn and an unsolicited turn are no silent replies")
    func notSilent() {
        var voiced = tracker(.event)
        voiced.sessionReady(at: ms(0))
        voiced.agentAudio(chunk(rms: 0.001), at: ms(100))
        voiced.agentAudio(chunk(rms: 0.01), at: ms(140))  // at the threshold: voiced
        _ = voiced.agentTurnEnded(at: ms(200))
        let fromVoiced = voiced.takeSilentReplies()
        #expect(fromVoiced.isEmpty)

        var interrupted = tracker(.event)
        interrupted.sessionReady(at: ms(0))
        interrupted.agentAudio(chunk(rms: 0), at: ms(100))
        _ = interrupted.bargeInSignal(.interrupted, at: ms(150))  // ends the turn as interrupted
        let fromInterrupted = interrupted.takeSilentReplies()
        #expect(fromInterrupted.isEmpty)

        var unsolicited = tracker(.event)  // audio before ready: no greeting
        unsolicited.agentAudio(chunk(rms: 0), at: ms(100))
        _ = unsolicited.agentTurnEnded(at: ms(200))
        let fromUnsolicited = unsolicited.takeSilentReplies()
        #expect(fromUnsolicited.isEmpty)
    }

    @Test("a turn end is overdue when the open turn's audio stopped quiet_ms ago, on event dialects only")
    func overdueTurnEnd() {
        var turns = tracker(.event, quietMs: 300)
        turns.sessionReady(at: ms(0))
        #expect(turns.overdueTurnEndUs(at: ms(5_000)) == nil)  // no turn: the agent never answered
        turns.agentAudio(chunk(rms: 0.2), at: ms(1_000))
        turns.agentAudio(chunk(rms: 0.2), at: ms(1_040))
        #expect(turns.overdueTurnEndUs(at: ms(1_300)) == nil)  // audio 260 ms ago: still arriving
        #expect(turns.overdueTurnEndUs(at: ms(1_340)) == 300_000)
        #expect(turns.overdueTurnEndUs(at: ms(5_140)) == 4_100_000)
        _ = turns.agentTurnEnded(at: ms(5_200))
        #expect(turns.overdueTurnEndUs(at: ms(9_000)) == nil)  // ended

        var gap = tracker(.audioGap, quietMs: 300)
        gap.sessionReady(at: ms(0))
        gap.agentAudio(chunk(rms: 0.2), at: ms(1_000))
        #expect(gap.overdueTurnEndUs(at: ms(5_000)) == nil)  // the gap itself ends its turns
    }

    @Test("the timeout of a turn-end wait becomes missing_turn_end only with an overdue turn")
    func timeoutClassification() {
        let overdue = VirtualClient.failure(
            of: StepTimedOut(step: "wait_agent_turn_end", turnEndOverdueUs: 4_120_000),
            condition: .agentTurnsEnded(1),
            timeoutMs: 10_000
        )
        #expect(overdue.errorClass == .missingTurnEnd)
        #expect(overdue.evidence == .text("agent audio ended 4.1 s before the 10000 ms wait ran out, no end-of-turn event"))
        let plain = VirtualClient.failure(of: StepTimedOut(step: "wait_ready"), condition: .ready, timeoutMs: 10_000)
        #expect(plain.errorClass == .timeout(step: "wait_ready"))
        #expect(plain.evidence == .text("no ready within 10000 ms"))
        #expect(WaitCondition.agentTurnsEnded(1).awaitsTurnEnd && WaitCondition.greeting(graceEndsAt: ms(0)).awaitsTurnEnd)
        #expect(!WaitCondition.ready.awaitsTurnEnd && !WaitCondition.agentAudio(turnsStartedBefore: 0).awaitsTurnEnd)
    }
}
