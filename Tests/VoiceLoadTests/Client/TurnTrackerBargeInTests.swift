import Testing
import WSCore

@testable import VoiceLoad

private func ms(_ value: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(value) * 1_000_000)
}

private func chunk(durationMs: Int64 = 40, key: String? = nil) -> AgentAudioChunk {
    AgentAudioChunk(byteCount: Int(durationMs) * 48, durationUs: durationMs * 1_000, rmsLevel: 0.2, turnKey: key)
}

/// A session where the user asked at 0–1000 ms and the agent answers from 1500 ms, 40 ms
/// chunks in real time until `untilMs`.
private func answering(untilMs: Int64 = 3_000, signal: TurnEndSignal = .audioGap) -> TurnTracker {
    var configuration = TurnTracker.Configuration()
    configuration.turnEndSignal = signal
    var turns = TurnTracker(configuration: configuration, client: 0, iteration: 0)
    turns.sessionReady(at: ms(0))
    _ = turns.utteranceStarted(label: "question", micOpenAt: ms(0), speechStartUs: 0, speechEndUs: 1_000_000)
    for at in stride(from: Int64(1_500), to: untilMs, by: 40) { turns.agentAudio(chunk(), at: ms(at)) }
    return turns
}

@Suite("TurnTracker barge-ins")
struct TurnTrackerBargeInTests {
    @Test("acknowledged barge-in: int_ack_ms, int_cutoff_ms, audio after the ack, the interrupted turn's row")
    func acknowledged() throws {
        var turns = answering()
        // Barge-in speech starts at 3000 (mic open 2700 + 300 ms).
        #expect(turns.utteranceStarted(label: "barge", micOpenAt: ms(2_700), speechStartUs: 300_000, speechEndUs: 1_300_000) == nil)
        turns.bargeInStarted(label: "barge", at: ms(3_000), intTimeoutMs: 3_000)
        turns.agentAudio(chunk(), at: ms(3_040))
        let signalled = turns.bargeInSignal(.interrupted, at: ms(3_100))
        let interrupted = try #require(signalled)
        #expect(interrupted.label == "question" && interrupted.outcome == .interrupted)
        #expect(interrupted.firstAudioFromEndUs == 500_000)
        // Two more chunks of the interrupted turn: its tail, not a new turn.
        turns.agentAudio(chunk(), at: ms(3_120))
        turns.agentAudio(chunk(), at: ms(3_160))
        #expect(turns.agentTurnsStarted == 1 && !turns.isAgentSpeaking)
        // The answer to the barge-in, after a quiet gap.
        turns.agentAudio(chunk(), at: ms(5_000))
        let (ended, record) = turns.checkQuiet(at: ms(5_540))
        let row = try #require(record)
        #expect(ended && row.label == "barge" && row.outcome == .completed && row.bargeIn)
        #expect(row.intAckUs == 100_000 && row.intCutoffUs == 160_000 && row.audioAfterAckUs == 80_000)
        #expect(row.missedInterruption == false && row.audioAlreadyDelivered == false)
        #expect(row.firstAudioFromEndUs == 1_000_000)
    }

    @Test("user speech counts as the acknowledgement only while the agent is audible: its turn open or its audio playing")
    func userSpeechWhileSilentIsNoAcknowledgement() {
        var turns = answering(untilMs: 1_600)
        _ = turns.checkQuiet(at: ms(3_000))  // the answer ended and played out
        _ = turns.utteranceStarted(label: "next", micOpenAt: ms(3_000), speechStartUs: 0, speechEndUs: 500_000)
        turns.bargeInStarted(label: "next", at: ms(3_000), intTimeoutMs: 3_000)
        #expect(turns.bargeInSignal(.userSpeechStarted, at: ms(3_100)) == nil)
        #expect(turns.bargeIn?.ackAt == nil)
    }

    @Test("an acknowledgement before T_bi_start does not count; none in time is a missed interruption")
    func missed() throws {
        var turns = answering(untilMs: 3_000, signal: .event)
        _ = turns.utteranceStarted(label: "barge", micOpenAt: ms(2_700), speechStartUs: 300_000, speechEndUs: 1_300_000)
        turns.bargeInStarted(label: "barge", at: ms(3_000), intTimeoutMs: 1_000)
        for at in stride(from: Int64(3_000), to: 9_000, by: 40) { turns.agentAudio(chunk(), at: ms(at)) }
        #expect(turns.bargeIn?.interruptedTurn == 1)
        var early = try #require(turns.bargeIn)
        early.acknowledge(at: ms(2_900))  // before the barge-in speech began
        #expect(early.ackAt == nil && turns.bargeIn?.ackAt == nil)
        // The agent talks on; its turn ends at 9000, then it answers the barge-in.
        _ = turns.agentTurnEnded(at: ms(9_000))
        turns.agentAudio(chunk(), at: ms(9_500))
        let ended = turns.agentTurnEnded(at: ms(10_000))
        let row = try #require(ended)
        #expect(row.label == "barge" && row.missedInterruption == true && row.intAckUs == nil)
        #expect(row.intCutoffUs == 5_960_000)  // the last chunk of the talked-over turn, at 8960
    }

    @Test("no audio of the interrupted turn after T_bi_start: audio_already_delivered, no cutoff")
    func alreadyDelivered() throws {
        var turns = answering(untilMs: 1_600, signal: .event)  // 80 ms arrived
        turns.agentAudio(chunk(durationMs: 5_000), at: ms(1_545))  // the rest at once: it plays on for 5 s
        _ = turns.utteranceStarted(label: "barge", micOpenAt: ms(1_550), speechStartUs: 0, speechEndUs: 500_000)
        turns.bargeInStarted(label: "barge", at: ms(1_550), intTimeoutMs: 3_000)
        _ = turns.bargeInSignal(.interrupted, at: ms(1_700))
        let rows = turns.finishPendingUtterance(outcome: .aborted)
        let row = try #require(rows.first)
        #expect(row.audioAlreadyDelivered == true && row.intCutoffUs == nil && row.intAckUs == 150_000)
    }

    @Test("an interrupt command gets its own row: int_cmd_rtt_ms, settled after the ack and a quiet gap")
    func command() throws {
        var turns = answering(untilMs: 3_000)
        turns.bargeInStarted(label: "stop", at: ms(2_990), commandSentAt: ms(2_990), intTimeoutMs: 3_000)
        #expect(turns.commandInterruptionSettlesAt == ms(5_990))  // the deadline, with no ack yet
        _ = turns.bargeInSignal(.interrupted, at: ms(3_050))
        #expect(turns.commandInterruptionSettlesAt == ms(3_550))
        let finished = turns.finishCommandInterruption()
        let row = try #require(finished)
        #expect(row.label == "stop" && row.outcome == .interrupted && row.speechStartOffsetUs == nil)
        #expect(row.intCommandRttUs == 60_000 && row.intAckUs == 60_000 && row.missedInterruption == false)
        #expect(turns.latestUtteranceRecorded)
    }

    @Test("a turn key keeps the cancelled response's late audio apart from the next answer")
    func turnKeys() {
        var turns = answering(untilMs: 1_600, signal: .event)
        turns.agentAudio(chunk(key: "r1"), at: ms(1_600))
        _ = turns.utteranceStarted(label: "barge", micOpenAt: ms(1_600), speechStartUs: 0, speechEndUs: 100_000)
        turns.bargeInStarted(label: "barge", at: ms(1_600), intTimeoutMs: 3_000)
        _ = turns.bargeInSignal(.responseCancelled, at: ms(1_700))
        turns.agentAudio(chunk(key: "r1"), at: ms(1_710))  // late audio of r1
        #expect(turns.agentTurnsStarted == 1)
        turns.agentAudio(chunk(key: "r2"), at: ms(1_720))  // the new answer, no gap needed
        #expect(turns.agentTurnsStarted == 2 && turns.isAgentSpeaking)
    }

    @Test("a command the server found nothing to cancel for: answered, counted as a late cancel, not missed")
    func lateCancel() throws {
        var turns = answering(untilMs: 2_000, signal: .event)
        _ = turns.agentTurnEnded(turnKey: nil, at: ms(2_000))  // the reply is complete
        turns.bargeInStarted(label: "cancel", at: ms(2_500), commandSentAt: ms(2_500), intTimeoutMs: 3_000)
        let answered = turns.commandFoundNothingToCancel(at: ms(2_530))
        #expect(answered)
        let finished = turns.finishCommandInterruption()
        let row = try #require(finished)
        #expect(row.lateCancel && row.missedInterruption == false)
        #expect(row.intCommandRttUs == 30_000)
        var counts = BargeInCounts()
        counts.add(row)
        #expect(counts.lateCancels == 1 && counts.acknowledged == 1)
        // With no command waiting, it is the server's error (the client records it).
        let nothingWaiting = turns.commandFoundNothingToCancel(at: ms(2_600))
        #expect(!nothingWaiting)
    }
}
