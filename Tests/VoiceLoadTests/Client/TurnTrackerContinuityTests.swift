import Testing
import WSCore

@testable import VoiceLoad

private func ms(_ value: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(value) * 1_000_000)
}

private func chunk(key: String? = nil) -> AgentAudioChunk {
    AgentAudioChunk(byteCount: 40 * 48, durationUs: 40_000, rmsLevel: 0.2, turnKey: key)
}

/// A tracker of a dialect whose turns end by event, with a 60 ms jitter buffer, and an
/// utterance whose speech ends at 1000.
private func tracker() -> TurnTracker {
    var configuration = TurnTracker.Configuration()
    configuration.turnEndSignal = .event
    configuration.jitterBufferMs = 60
    var turns = TurnTracker(configuration: configuration, client: 0, iteration: 0)
    turns.sessionReady(at: ms(0))
    _ = turns.utteranceStarted(label: "ask", micOpenAt: ms(0), speechStartUs: 200_000, speechEndUs: 1_000_000)
    return turns
}

@Suite("TurnTracker: audio continuity of a reply")
struct TurnTrackerContinuityTests {
    @Test("a slow reply's row has its stalls, their silence and reply_rtf")
    func slowReply() throws {
        var turns = tracker()
        for index in Int64(0)...12 { turns.agentAudio(chunk(), at: ms(2_000 + index * 50)) }
        let rowRecord = turns.agentTurnEnded(at: ms(2_700))
        let row = try #require(rowRecord)
        #expect(row.stallCount == 2 && row.stallUs == 120_000)
        #expect(row.replyRTF == 520.0 / 600)
    }

    @Test("a smooth reply has stall_count 0 and stall_ms 0; the underrun after its last chunk is no stall")
    func smoothReply() throws {
        var turns = tracker()
        for index in Int64(0)..<10 { turns.agentAudio(chunk(), at: ms(2_000 + index * 40)) }
        let rowRecord = turns.agentTurnEnded(at: ms(3_000))
        let row = try #require(rowRecord)
        #expect(row.stallCount == 0 && row.stallUs == 0)
        #expect(row.replyRTF == 400.0 / 360)
    }

    @Test("the next turn's first chunk, after the previous reply played out, is no stall of either")
    func nextTurn() throws {
        var turns = tracker()
        turns.agentAudio(chunk(), at: ms(2_000))
        turns.agentAudio(chunk(), at: ms(2_040))
        let firstRecord = turns.agentTurnEnded(at: ms(2_100))
        let first = try #require(firstRecord)
        #expect(first.stallCount == 0)
        _ = turns.utteranceStarted(label: "again", micOpenAt: ms(3_000), speechStartUs: 0, speechEndUs: 500_000)
        turns.agentAudio(chunk(), at: ms(4_000))
        turns.agentAudio(chunk(), at: ms(4_040))
        let secondRecord = turns.agentTurnEnded(at: ms(4_100))
        let second = try #require(secondRecord)
        #expect(second.stallCount == 0 && second.stallUs == 0)
    }

    @Test("a reply that never came has no continuity figures (absent, not zero)")
    func noAudio() throws {
        var turns = tracker()
        let rows = turns.finishPendingUtterance(outcome: .timedOut)
        #expect(rows.count == 1 && rows[0].stallCount == nil && rows[0].stallUs == nil && rows[0].replyRTF == nil)
    }

    @Test("barge-in: the interrupted reply counts its stalls up to the barge-in only")
    func bargeIn() throws {
        var turns = tracker()
        turns.agentAudio(chunk(), at: ms(2_000))  // plays 2060–2100
        turns.agentAudio(chunk(), at: ms(2_500))  // a stall: 2100 → 2560
        _ = turns.utteranceStarted(label: "barge", micOpenAt: ms(2_400), speechStartUs: 130_000, speechEndUs: 900_000)
        turns.bargeInStarted(label: "barge", at: ms(2_530), intTimeoutMs: 2_000)
        turns.agentAudio(chunk(), at: ms(3_000))  // after the barge-in: not counted
        let rowRecord = turns.bargeInSignal(.interrupted, at: ms(3_050))
        let row = try #require(rowRecord)
        #expect(row.label == "ask" && row.outcome == .interrupted)
        #expect(row.stallCount == 1 && row.stallUs == 430_000)
        #expect(row.replyRTF == 80.0 / 500)
    }
}
