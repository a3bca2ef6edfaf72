/// Turns one session's sent utterances and received agent events into per-turn measurements
/// (PROTOCOLS.md §2.3). A value-type state machine: the virtual client feeds it timestamps
/// and acts on what it returns; it reads no clock itself.
public struct TurnTracker: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// A gap in agent audio this long (with the playback cursor drained) ends an agent turn
        /// on dialects with no end-of-turn event, and separates agent turns.
        public var quietMs: Int64 = 500
        /// RMS level (0…1) above which an agent chunk is voiced; 0.01 is −40 dBFS.
        public var voicedRmsThreshold: Float = 0.01
        public var turnEndSignal: TurnEndSignal = .event
        public var jitterBufferMs: Int64 = 0
        /// False for speech-to-text: the endpoint (final transcript) answers an utterance.
        public var repliesWithAudio = true

        public init() {}
    }

    /// What an agent turn is the answer to.
    enum AgentTurnRole: Sendable, Hashable {
        case greeting
        case response(premature: Bool)
        case unsolicited
    }

    struct AgentTurn: Sendable, Hashable {
        var role: AgentTurnRole
        var firstAudioAt: MonotonicInstant
        var firstVoicedAt: MonotonicInstant?
        var lastAudioAt: MonotonicInstant
    }

    struct Utterance: Sendable, Hashable {
        var index: Int
        var label: String
        var speechStartAt: MonotonicInstant
        var speechEndAt: MonotonicInstant
        var speechStartOffsetMs: Double
        var speechEndOffsetMs: Double
        /// Whether an agent turn answering this utterance has begun.
        var answered = false
        var firstPartialTranscriptAt: MonotonicInstant?
        var finalTranscriptAt: MonotonicInstant?
        var endpointAt: MonotonicInstant?
    }

    public let configuration: Configuration
    public let client: Int
    public let iteration: Int

    public private(set) var readyAt: MonotonicInstant?
    /// `greeting_ms`: first agent audio of a turn that began after ready and before any utterance.
    public private(set) var greetingMs: Double?
    /// Agent turns that have ended so far (by event, quiet gap or interruption).
    public private(set) var agentTurnsEnded = 0
    public private(set) var playback: PlaybackCursor
    public private(set) var utterancesStarted = 0

    private var agentTurn: AgentTurn?
    private var utterance: Utterance?
    private var lastEndedTurnRole: AgentTurnRole?
    private var serverLatencyTurn = 0
    private var serverMetricsReported: Set<MetricName> = []

    public init(configuration: Configuration, client: Int, iteration: Int) {
        self.configuration = configuration
        self.client = client
        self.iteration = iteration
        self.playback = PlaybackCursor(jitterBufferUs: configuration.jitterBufferMs * 1_000)
    }

    public var isAgentSpeaking: Bool { agentTurn != nil }

    public mutating func sessionReady(at: MonotonicInstant) {
        if readyAt == nil { readyAt = at }
    }

    /// A `say` step opened the microphone at `micOpenAt` for a clip whose speech lies at
    /// `speechStartUs…speechEndUs` (§2.6 rulings 1 and 3). Returns the record of a previous
    /// utterance that was still waiting for its answer, which is now abandoned.
    public mutating func utteranceStarted(
        label: String, micOpenAt: MonotonicInstant, speechStartUs: Int64, speechEndUs: Int64
    ) -> TurnRecord? {
        let abandoned = finishPendingUtterance(outcome: .aborted)
        utterancesStarted += 1
        utterance = Utterance(
            index: utterancesStarted,
            label: label,
            speechStartAt: micOpenAt.advanced(byMicroseconds: speechStartUs),
            speechEndAt: micOpenAt.advanced(byMicroseconds: speechEndUs),
            speechStartOffsetMs: Double(speechStartUs) / 1_000,
            speechEndOffsetMs: Double(speechEndUs) / 1_000
        )
        return abandoned
    }

    /// A chunk of agent audio arrived. May end nothing, but starts a turn when none is open.
    public mutating func agentAudio(_ chunk: AgentAudioChunk, at: MonotonicInstant) {
        if agentTurn == nil {
            let role = role(ofTurnStartingAt: at)
            if case .response = role { utterance?.answered = true }
            agentTurn = AgentTurn(role: role, firstAudioAt: at, lastAudioAt: at)
        }
        agentTurn?.lastAudioAt = at
        if agentTurn?.firstVoicedAt == nil, chunk.rmsLevel >= configuration.voicedRmsThreshold {
            agentTurn?.firstVoicedAt = at
        }
        playback.enqueue(durationUs: chunk.durationUs, at: at)
    }

    /// The dialect's explicit end-of-turn signal arrived.
    public mutating func agentTurnEnded(at: MonotonicInstant) -> TurnRecord? {
        guard agentTurn != nil else { return nil }
        return endAgentTurn(at: at, interrupted: false)
    }

    /// The server acknowledged an interruption: the agent's turn is over and playback flushed.
    public mutating func agentInterrupted(at: MonotonicInstant) -> TurnRecord? {
        playback.flush(at: at)
        guard agentTurn != nil else { return nil }
        return endAgentTurn(at: at, interrupted: true)
    }

    /// A user transcript arrived: the first non-empty one after the speech began is the first
    /// partial, the first final one after the speech ended is the final (ruling 8).
    public mutating func userTranscript(text: String, isFinal: Bool, at: MonotonicInstant) {
        guard var pending = utterance, !text.isEmpty, at >= pending.speechStartAt else { return }
        if pending.firstPartialTranscriptAt == nil { pending.firstPartialTranscriptAt = at }
        if isFinal, pending.finalTranscriptAt == nil, at >= pending.speechEndAt { pending.finalTranscriptAt = at }
        utterance = pending
    }

    /// The server's endpointing ended the utterance (Deepgram `speech_final` or
    /// `UtteranceEnd`). For speech-to-text this is the answer, and ends the server's turn.
    public mutating func endpointReached(at: MonotonicInstant) -> TurnRecord? {
        guard var pending = utterance, at >= pending.speechEndAt, pending.endpointAt == nil else { return nil }
        pending.endpointAt = at
        utterance = pending
        guard !configuration.repliesWithAudio else { return nil }
        utterance = nil
        agentTurnsEnded += 1
        return record(for: pending, response: nil, endedAt: at, outcome: .completed)
    }

    /// A latency the server reported about the current agent turn, the answer about to start
    /// (Deepgram's `AgentStartedSpeaking` precedes its audio), or the turn that just ended
    /// (`LatencyReport` follows `AgentAudioDone`). Returns whether to record it: once per
    /// metric and turn (both messages carry `total_latency`), never for a greeting.
    public mutating func serverLatency(_ metric: MetricName) -> Bool {
        let turnNumber: Int
        let role: AgentTurnRole?
        if let agentTurn {
            (turnNumber, role) = (agentTurnsEnded + 1, agentTurn.role)
        } else if let utterance, !utterance.answered {
            (turnNumber, role) = (agentTurnsEnded + 1, .response(premature: false))
        } else {
            (turnNumber, role) = (agentTurnsEnded, lastEndedTurnRole)
        }
        guard turnNumber > 0, case .response = role else { return false }
        if serverLatencyTurn != turnNumber {
            serverLatencyTurn = turnNumber
            serverMetricsReported = []
        }
        return serverMetricsReported.insert(metric).inserted
    }

    /// When a turn is open on a dialect without an end-of-turn event: the moment to look
    /// again for the quiet gap that ends it.
    public var nextQuietCheck: MonotonicInstant? {
        guard configuration.turnEndSignal == .audioGap, let agentTurn else { return nil }
        let quietAt = agentTurn.lastAudioAt.advanced(byMilliseconds: configuration.quietMs)
        return max(quietAt, playback.drainsAt ?? quietAt)
    }

    /// Ends the open turn if its audio has been quiet for `quietMs` and has played out.
    /// The turn's end time is the arrival of its last audio chunk.
    public mutating func checkQuiet(at now: MonotonicInstant) -> (ended: Bool, record: TurnRecord?) {
        guard let due = nextQuietCheck, due <= now, let lastAudioAt = agentTurn?.lastAudioAt else {
            return (false, nil)
        }
        return (true, endAgentTurn(at: lastAudioAt, interrupted: false))
    }

    /// Closes the utterance still waiting for (the end of) its answer: a wait step timed out
    /// or the session ended. What was measured so far is kept (censored, not dropped).
    public mutating func finishPendingUtterance(outcome: TurnOutcome) -> TurnRecord? {
        guard let pending = utterance else { return nil }
        utterance = nil
        guard let turn = agentTurn, case .response(let premature) = turn.role else {
            return record(for: pending, response: nil, endedAt: nil, outcome: outcome)
        }
        // The answer is still under way: it no longer belongs to a waiting utterance.
        agentTurn?.role = .unsolicited
        return record(for: pending, response: turn, endedAt: nil, outcome: premature ? .prematureResponse : outcome)
    }

    private func role(ofTurnStartingAt at: MonotonicInstant) -> AgentTurnRole {
        if let utterance, !utterance.answered {
            if at >= utterance.speechEndAt { return .response(premature: false) }
            if at >= utterance.speechStartAt { return .response(premature: true) }
            return .unsolicited
        }
        if utterancesStarted == 0, greetingMs == nil, readyAt != nil { return .greeting }
        return .unsolicited
    }

    private mutating func endAgentTurn(at: MonotonicInstant, interrupted: Bool) -> TurnRecord? {
        guard let turn = agentTurn else { return nil }
        agentTurn = nil
        agentTurnsEnded += 1
        lastEndedTurnRole = turn.role
        switch turn.role {
        case .greeting:
            if let readyAt { greetingMs = turn.firstAudioAt.milliseconds(since: readyAt) }
            return nil
        case .unsolicited:
            return nil
        case .response(let premature):
            guard let pending = utterance else { return nil }
            utterance = nil
            let outcome: TurnOutcome = premature ? .prematureResponse : (interrupted ? .interrupted : .completed)
            return record(for: pending, response: turn, endedAt: at, outcome: outcome)
        }
    }

    private func record(
        for utterance: Utterance, response: AgentTurn?, endedAt: MonotonicInstant?, outcome: TurnOutcome
    ) -> TurnRecord {
        var row = TurnRecord(
            client: client, iteration: iteration, turn: utterance.index, label: utterance.label,
            outcome: outcome, speechStartOffsetMs: utterance.speechStartOffsetMs,
            speechEndOffsetMs: utterance.speechEndOffsetMs
        )
        row.userTranscriptFirstPartialMs = utterance.firstPartialTranscriptAt?.milliseconds(since: utterance.speechStartAt)
        row.userTranscriptFinalMs = utterance.finalTranscriptAt?.milliseconds(since: utterance.speechEndAt)
        row.endpointMs = utterance.endpointAt?.milliseconds(since: utterance.speechEndAt)
        // A premature response has no latency: it would be negative (§2.3 c).
        guard let response, outcome != .prematureResponse else { return row }
        row.firstAudioFromEndMs = response.firstAudioAt.milliseconds(since: utterance.speechEndAt)
        row.firstAudioFromStartMs = response.firstAudioAt.milliseconds(since: utterance.speechStartAt)
        row.firstVoicedAudioFromEndMs = response.firstVoicedAt?.milliseconds(since: utterance.speechEndAt)
        row.turnDurationMs = endedAt?.milliseconds(since: response.firstAudioAt)
        return row
    }
}
