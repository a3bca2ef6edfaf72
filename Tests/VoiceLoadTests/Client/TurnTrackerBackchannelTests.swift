import Testing
import WSCore

@testable import VoiceLoad

private func ms(_ value: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(value) * 1_000_000)
}

private func chunk() -> AgentAudioChunk {
    AgentAudioChunk(byteCount: 40 * 48, durationUs: 40_000, rmsLevel: 0.2, turnKey: nil)
}

/// The user asked at 0–1000 ms and the agent answers from 1500 ms, 40 ms chunks in real time
/// until `untilMs`.
private func answering(untilMs: Int64, signal: TurnEndSignal = .event) -> TurnTracker {
    var configuration = TurnTracker.Configuration()
    configuration.turnEndSignal = signal
    var turns = TurnTracker(configuration: configuration, client: 0, iteration: 0)
    turns.sessionReady(at: ms(0))
    _ = turns.utteranceStarted(label: "question", micOpenAt: ms(0), speechStartUs: 0, speechEndUs: 1_000_000)
    more(&turns, from: 1_500, to: untilMs)
    return turns
}

private func more(_ turns: inout TurnTracker, from startMs: Int64, to endMs: Int64) {
    for at in stride(from: startMs, to: endMs, by: 40) { turns.agentAudio(chunk(), at: ms(at)) }
}

@Suite("TurnTracker backchannels")
struct TurnTrackerBackchannelTests {
    @Test("the agent speaks on to its end-of-turn event: counted on the answer's row, not stopped; first audio as without it")
    func spokeOn() throws {
        var turns = answering(untilMs: 2_500)
        turns.backchannelStarted(at: ms(2_500), stopWindowMs: 1_500)
        more(&turns, from: 2_500, to: 5_000)
        turns.backchannelStarted(at: ms(4_000), stopWindowMs: 1_500)
        more(&turns, from: 5_000, to: 6_000)
        let ended = turns.agentTurnEnded(at: ms(6_000))
        let row = try #require(ended)
        #expect(row.label == "question" && row.outcome == .completed && row.turnEndBy == .event)
        #expect(row.backchannels == 2 && row.backchannelsStopped == 0)
        #expect(row.firstAudioFromEndUs == 500_000 && !row.bargeIn && row.missedInterruption == nil)
        #expect(turns.backchannels.total == Backchannels.Count(spoken: 2, stopped: 0))
        #expect(turns.utterancesStarted == 1)  // a backchannel is no utterance
    }

    @Test("the interruption signal within the stop window stopped the agent; after it, not")
    func signalled() throws {
        var turns = answering(untilMs: 2_500)
        turns.backchannelStarted(at: ms(2_500), stopWindowMs: 1_500)
        more(&turns, from: 2_500, to: 2_800)
        let signalled = turns.bargeInSignal(.interrupted, at: ms(2_800))
        let row = try #require(signalled)
        #expect(row.outcome == .interrupted && row.backchannels == 1 && row.backchannelsStopped == 1)
        #expect(!row.bargeIn && row.intAckUs == nil)  // no barge-in figures

        var late = answering(untilMs: 2_500)
        late.backchannelStarted(at: ms(2_500), stopWindowMs: 1_500)
        more(&late, from: 2_500, to: 4_100)
        let lateSignal = late.bargeInSignal(.userSpeechStarted, at: ms(4_100))
        let lateRow = try #require(lateSignal)
        #expect(lateRow.backchannels == 1 && lateRow.backchannelsStopped == 0)
        #expect(late.backchannels.total == Backchannels.Count(spoken: 1, stopped: 0))
    }

    @Test("audio cut off: a quiet gap (no end-of-turn event) with the last chunk within the window stopped the agent")
    func cutOff() throws {
        var turns = answering(untilMs: 2_500, signal: .audioGap)
        turns.backchannelStarted(at: ms(2_500), stopWindowMs: 1_500)
        more(&turns, from: 2_500, to: 3_000)
        let (ended, record) = turns.checkQuiet(at: ms(3_600))
        let row = try #require(record)
        #expect(ended && row.turnEndBy == .quietGap && row.backchannels == 1 && row.backchannelsStopped == 1)

        // Its audio went on past the window: the reply ended on its own.
        var spokeOn = answering(untilMs: 2_500, signal: .audioGap)
        spokeOn.backchannelStarted(at: ms(2_500), stopWindowMs: 1_500)
        more(&spokeOn, from: 2_500, to: 4_500)
        let onQuiet = spokeOn.checkQuiet(at: ms(5_100))
        let onRow = try #require(onQuiet.record)
        #expect(onRow.backchannels == 1 && onRow.backchannelsStopped == 0)
    }

    @Test("a barge-in closes the window: its acknowledgement does not count against the backchannel before it")
    func bargeInAfter() throws {
        var turns = answering(untilMs: 2_500)
        turns.backchannelStarted(at: ms(2_500), stopWindowMs: 1_500)
        more(&turns, from: 2_500, to: 3_000)
        _ = turns.utteranceStarted(label: "barge", micOpenAt: ms(2_800), speechStartUs: 200_000, speechEndUs: 1_200_000)
        turns.bargeInStarted(label: "barge", at: ms(3_000), intTimeoutMs: 3_000)
        let signalled = turns.bargeInSignal(.interrupted, at: ms(3_200))
        let row = try #require(signalled)
        #expect(row.label == "question" && row.backchannels == 1 && row.backchannelsStopped == 0)
        #expect(turns.bargeIn?.ackAt == ms(3_200))  // the barge-in keeps its acknowledgement
    }

    @Test("over no open turn, and on a row closed before its answer ended: counted, not stopped")
    func noTurn() throws {
        var turns = answering(untilMs: 2_500)
        _ = turns.agentTurnEnded(at: ms(2_500))
        turns.backchannelStarted(at: ms(2_600), stopWindowMs: 1_500)
        #expect(turns.backchannels.total == Backchannels.Count(spoken: 1, stopped: 0))

        var open = answering(untilMs: 2_500)
        open.backchannelStarted(at: ms(2_500), stopWindowMs: 1_500)
        let rows = open.finishPendingUtterance(outcome: .aborted)
        #expect(rows.count == 1 && rows[0].backchannels == 1 && rows[0].backchannelsStopped == 0)
    }
}
