import WSCore

/// The parts of a `TurnTracker` (its agent turns, utterances, interrupted tails) and what it
/// answers without changing; every field of the tracker is written in `TurnTracker.swift`
/// only (an utterance's own methods update the utterance the tracker hands them).
extension TurnTracker {
    /// What an agent turn is the answer to.
    enum AgentTurnRole: Sendable, Hashable {
        case greeting
        case response(premature: Bool)
        case unsolicited
    }

    struct AgentTurn: Sendable, Hashable {
        /// 1-based count of agent turns in the attempt.
        var number: Int
        var role: AgentTurnRole
        /// The utterance this turn answers.
        var owner: Utterance?
        /// The wire's turn key (OpenAI `response_id`), from the first chunk that has one.
        var turnKey: String?
        var firstAudioAt: MonotonicInstant
        var firstVoicedAt: MonotonicInstant?
        var lastAudioAt: MonotonicInstant
        /// The duration of its audio so far, and the RMS level of its loudest chunk.
        var audioUs: Int64 = 0
        var peakRms: Float = 0
        /// Its stalls and arrival rate (`stall_count`, `stall_ms`, `reply_rtf`).
        var continuity = ReplyContinuity()
    }

    struct Utterance: Sendable, Hashable {
        var index: Int
        var label: String
        var speechStartAt: MonotonicInstant
        var speechEndAt: MonotonicInstant
        /// Where speech lies in the clip; nil for an interrupt command (no speech).
        var speechStartOffsetUs: Int64?
        var speechEndOffsetUs: Int64?
        var firstPartialTranscriptAt: MonotonicInstant?
        var finalTranscriptAt: MonotonicInstant?
        var endpointAt: MonotonicInstant?
        /// When the client committed the utterance (manual turns: OpenAI `input_audio_buffer.commit`).
        var committedAt: MonotonicInstant?
        /// The server's reading of the turn (Flux `TurnInfo`): its end, the eager end that
        /// stands, and the eager ends withdrawn.
        var endOfTurnAt: MonotonicInstant?
        var eagerEndOfTurnAt: MonotonicInstant?
        var turnsResumed = 0

        /// A user transcript at `at` (`TurnTracker.userTranscript`): the first partial after the
        /// speech began, the first final after it ended.
        mutating func noteTranscript(text: String, isFinal: Bool, at: MonotonicInstant) {
            guard at >= speechStartAt else { return }
            // A dialect that sends finals only (Deepgram Voice Agent) has no first partial: absent.
            if !isFinal, firstPartialTranscriptAt == nil { firstPartialTranscriptAt = at }
            if isFinal, finalTranscriptAt == nil, at >= speechEndAt { finalTranscriptAt = at }
        }

        /// The server's reading of the turn at `at` (Flux `TurnInfo`, docs/metrics.md); true when
        /// it ends the utterance. An eager end after the speech stands until a resumption
        /// withdraws it; an end of turn counts only after the speech ended (an earlier one is
        /// not this turn's end); signals from before the speech began belong to an earlier turn.
        mutating func note(_ signal: UserTurnSignal, at: MonotonicInstant) -> Bool {
            guard at >= speechStartAt else { return false }
            switch signal {
            case .eagerEndOfTurn:
                if at >= speechEndAt, eagerEndOfTurnAt == nil { eagerEndOfTurnAt = at }
            case .turnResumed:
                turnsResumed += 1
                eagerEndOfTurnAt = nil
            case .endOfTurn:
                guard at >= speechEndAt, endOfTurnAt == nil else { return false }
                endOfTurnAt = at
                return true
            }
            return false
        }

        /// The server's turn-detection figures on `row` (docs/metrics.md): from the end of the
        /// speech, and, with `countsResumes`, the eager ends withdrawn.
        func fillTurnDetection(_ row: inout TurnRecord, countsResumes: Bool) {
            row.endOfTurnUs = endOfTurnAt?.microseconds(since: speechEndAt)
            row.eagerEndOfTurnUs = eagerEndOfTurnAt?.microseconds(since: speechEndAt)
            row.turnsResumed = countsResumes ? turnsResumed : nil
        }
    }

    /// The audio of an interrupted turn that may still arrive after the acknowledgement: it
    /// belongs to that turn (same turn key, or no quiet gap), not to a new answer.
    struct InterruptedTail: Sendable, Hashable {
        var turnNumber: Int
        var turnKey: String?
        var lastAudioAt: MonotonicInstant
    }

    /// Whether an agent turn is open. A match on the case, not `agentTurn != nil`: that generic
    /// comparison copies the whole turn (its answered utterance included) on every reply chunk
    /// (BENCHMARKS.md, "Instructions per frame").
    package var isAgentSpeaking: Bool {
        if case .none = agentTurn { return false }
        return true
    }

    /// Whether the agent is speaking for the caller at `now`: its turn is open, or its audio
    /// is still playing. Only then does a user-speech event count as an interruption.
    package func isAgentAudible(at now: MonotonicInstant) -> Bool {
        isAgentSpeaking || !playback.isDrained(at: now)
    }

    /// When a turn is open on a dialect whose turns may end by a quiet gap: the moment to look
    /// again for the gap that ends it.
    package var nextQuietCheck: MonotonicInstant? {
        guard configuration.turnEndSignal.endsByQuietGap, let lastAudioAt = agentTurn?.lastAudioAt else { return nil }
        let quietAt = lastAudioAt.advanced(byMilliseconds: configuration.quietMs)
        return max(quietAt, playback.drainsAt ?? quietAt)
    }

    /// On a dialect whose turns end by event: how long before `now` the open agent turn's last
    /// audio arrived, in µs, when that is at least `quietMs` — its audio stopped and the
    /// end-of-turn event that should have followed has not come (`missing_turn_end` when a
    /// wait for it runs out). nil when no turn is open (the agent never answered), its audio
    /// is still arriving, or turns end by an audio gap.
    package func overdueTurnEndUs(at now: MonotonicInstant) -> Int64? {
        guard configuration.turnEndSignal == .event, let lastAudioAt = agentTurn?.lastAudioAt else { return nil }
        let quietForUs = now.microseconds(since: lastAudioAt)
        return quietForUs >= configuration.quietMs * 1_000 ? quietForUs : nil
    }

    /// Whether the latest utterance has its row: answered, censored or abandoned.
    package var latestUtteranceRecorded: Bool { utterancesRecorded >= utterancesStarted }

    /// Whether `chunk` is more of the interrupted turn `tail`: the same turn key, or no quiet gap.
    func belongsToTail(_ chunk: AgentAudioChunk, at: MonotonicInstant, tail: InterruptedTail) -> Bool {
        if let key = chunk.turnKey, let tailKey = tail.turnKey { return key == tailKey }
        return at.milliseconds(since: tail.lastAudioAt) < Double(configuration.quietMs)
    }

    /// What an agent turn starting at `at` answers: the waiting utterance (prematurely, when
    /// its speech has not ended), the greeting, or nothing.
    func role(ofTurnStartingAt at: MonotonicInstant) -> AgentTurnRole {
        if let utterance {
            if at >= utterance.speechEndAt { return .response(premature: false) }
            if at >= utterance.speechStartAt { return .response(premature: true) }
            return .unsolicited
        }
        if utterancesStarted == 0, greetingUs == nil, readyAt != nil { return .greeting }
        return .unsolicited
    }
}
