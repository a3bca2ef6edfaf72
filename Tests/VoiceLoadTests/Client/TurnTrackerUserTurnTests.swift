import Testing
import WSCore

@testable import VoiceLoad

/// Instants on a made-up timeline, in milliseconds from an arbitrary origin.
private func ms(_ value: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(value) * 1_000_000)
}

/// A speech-to-text tracker (Flux) with one utterance whose speech lies at 1000…2500 ms
/// (the microphone opens at 500 ms, the clip's speech at 0.5…2 s).
private func flux(countsTurnResumes: Bool = true) -> TurnTracker {
    var configuration = TurnTracker.Configuration()
    configuration.turnEndSignal = .event
    configuration.repliesWithAudio = false
    configuration.countsTurnResumes = countsTurnResumes
    var tracker = TurnTracker(configuration: configuration, client: 1, iteration: 1)
    tracker.sessionReady(at: ms(0))
    _ = tracker.utteranceStarted(label: "hello", micOpenAt: ms(500), speechStartUs: 500_000, speechEndUs: 2_000_000)
    return tracker
}

@Suite("TurnTracker: the server's reading of the user's turn (Flux TurnInfo)")
struct TurnTrackerUserTurnTests {
    @Test("EndOfTurn after the speech is the answer: end_of_turn_ms from the end of speech, no eager end, no resumption")
    func endOfTurn() throws {
        var turns = flux()
        let first = turns.userTurnSignal(.endOfTurn, at: ms(3_200))
        #expect(first?.turn == 1)
        let row = try #require(flux().endingAt(3_200, after: []))
        #expect(row.outcome == .completed)
        #expect(row.endOfTurnUs == 700_000)
        #expect(row.eagerEndOfTurnUs == nil)
        #expect(row.turnsResumed == 0)
        #expect(row.endpointUs == nil)
        let second = turns.userTurnSignal(.endOfTurn, at: ms(3_300))
        #expect(second == nil, "one answer per utterance")
    }

    @Test("an eager end that stood: eager_end_of_turn_ms from the end of speech")
    func eagerStood() throws {
        let signals: [(UserTurnSignal, Int64)] = [(.eagerEndOfTurn, 2_300), (.eagerEndOfTurn, 2_600), (.eagerEndOfTurn, 2_700)]
        let row = try #require(flux().endingAt(3_200, after: signals))
        #expect(row.eagerEndOfTurnUs == 100_000, "the first eager end after the speech")
        #expect(row.endOfTurnUs == 700_000)
        #expect(row.turnsResumed == 0)
    }

    @Test("TurnResumed withdraws the eager end and is counted; the next eager end is the one that stood")
    func resumed() throws {
        let signals: [(UserTurnSignal, Int64)] = [
            (.eagerEndOfTurn, 1_800), (.turnResumed, 1_900), (.eagerEndOfTurn, 2_600), (.turnResumed, 2_700), (.eagerEndOfTurn, 2_800),
        ]
        let row = try #require(flux().endingAt(3_000, after: signals))
        #expect(row.turnsResumed == 2)
        #expect(row.eagerEndOfTurnUs == 300_000)
        #expect(row.endOfTurnUs == 500_000)
    }

    @Test("an end of turn before the speech ended is not this turn's: the next one is taken")
    func earlyEndOfTurn() throws {
        var turns = flux()
        #expect(turns.userTurnSignal(.endOfTurn, at: ms(1_500)) == nil)
        #expect(turns.userTurnSignal(.endOfTurn, at: ms(2_450)) == nil)
        let ended = turns.userTurnSignal(.endOfTurn, at: ms(2_950))
        let row = try #require(ended)
        #expect(row.endOfTurnUs == 450_000)
    }

    @Test("signals from before the speech began belong to an earlier turn and are not counted")
    func beforeSpeech() throws {
        let row = try #require(flux().endingAt(2_500, after: [(.turnResumed, 900), (.eagerEndOfTurn, 950)]))
        #expect(row.turnsResumed == 0)
        #expect(row.eagerEndOfTurnUs == nil)
    }

    @Test("a turn that timed out keeps its eager end and resumptions (censored, not dropped)")
    func timedOut() throws {
        var turns = flux()
        _ = turns.userTurnSignal(.turnResumed, at: ms(1_700))
        _ = turns.userTurnSignal(.eagerEndOfTurn, at: ms(2_100))
        _ = turns.userTurnSignal(.eagerEndOfTurn, at: ms(2_600))
        let row = try #require(turns.finishPendingUtterance(outcome: .timedOut).first)
        #expect(row.outcome == .timedOut)
        #expect(row.eagerEndOfTurnUs == 100_000)
        #expect(row.turnsResumed == 1)
        #expect(row.endOfTurnUs == nil)
    }

    @Test("a run that cannot see an eager end withdrawn has no turns_resumed (empty, not 0)")
    func noSignals() throws {
        var turns = flux(countsTurnResumes: false)
        let endpointed = turns.endpointReached(at: ms(2_800))
        let row = try #require(endpointed)
        #expect(row.endpointUs == 300_000)
        #expect(row.turnsResumed == nil)
        #expect(row.endOfTurnUs == nil)
    }
}

extension TurnTracker {
    /// The row of the utterance after `signals` (kind, ms) and an `EndOfTurn` at `endMs`.
    fileprivate func endingAt(_ endMs: Int64, after signals: [(UserTurnSignal, Int64)]) -> TurnRecord? {
        var tracker = self
        for (signal, atMs) in signals {
            if let early = tracker.userTurnSignal(signal, at: ms(atMs)) { return early }
        }
        return tracker.userTurnSignal(.endOfTurn, at: ms(endMs))
    }
}
