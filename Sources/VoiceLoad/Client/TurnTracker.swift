import WSCore

/// Turns one call attempt's utterances and the agent events it received into per-turn
/// measurements (docs/metrics.md). A value-type part of `CallAttempt`, which feeds it
/// timestamps and acts on what it returns; it reads no clock itself.
///
/// An utterance waits in `utterance` until an agent turn starts after its speech: that turn
/// then *owns* it, and the turn's end (by event, quiet gap or interruption) is its record.
/// Barge-ins are measured here too (`BargeIn`, `TurnTracker+BargeIn.swift`). Every field is
/// written in this file only; the types of its parts and what it answers without changing are
/// in `TurnTracker+Parts.swift`.
package struct TurnTracker: Sendable {
    package let configuration: Configuration
    package let client: Int
    package let iteration: Int

    package private(set) var readyAt: MonotonicInstant?
    /// `greeting_ms`, in µs: first agent audio of a turn that began after ready and before any utterance.
    package private(set) var greetingUs: Int64?
    package private(set) var agentTurnsStarted = 0
    /// Agent turns that have ended so far (by event, quiet gap or interruption).
    package private(set) var agentTurnsEnded = 0
    package private(set) var playback: PlaybackCursor
    package private(set) var utterancesStarted = 0
    /// Utterances whose row has been handed out (answered, censored or abandoned).
    package private(set) var utterancesRecorded = 0
    /// Arrival of the latest agent audio chunk.
    package private(set) var lastAgentAudioAt: MonotonicInstant?

    private(set) var agentTurn: AgentTurn?
    private(set) var utterance: Utterance?
    private(set) var tail: InterruptedTail?
    /// The barge-in being measured, and earlier ones whose utterance is not yet recorded.
    private(set) var bargeIn: BargeIn?
    private var settledBargeIns: [Int: BargeIn] = [:]
    package private(set) var backchannels = Backchannels()  // and whether the agent stopped for each
    /// Silent replies not yet taken by `takeSilentReplies()`.
    private var silentReplies: [SilentReply] = []
    private var lastEndedTurnRole: AgentTurnRole?
    private var serverLatencyTurn = 0
    private var serverMetricsReported: Set<MetricName> = []

    package init(configuration: Configuration, client: Int, iteration: Int) {
        self.configuration = configuration
        self.client = client
        self.iteration = iteration
        self.playback = PlaybackCursor(jitterBufferUs: configuration.jitterBufferMs * 1_000)
    }

    package mutating func sessionReady(at: MonotonicInstant) {
        if readyAt == nil { readyAt = at }
    }

    /// A `say` step opened the microphone at `micOpenAt` for a clip whose speech lies at
    /// `speechStartUs…speechEndUs` (docs/metrics.md, "The audio clock"). Returns the record of a previous
    /// utterance that was still waiting for its answer, which is now abandoned.
    package mutating func utteranceStarted(
        label: String,
        micOpenAt: MonotonicInstant,
        speechStartUs: Int64,
        speechEndUs: Int64
    ) -> TurnRecord? {
        var abandoned: TurnRecord?
        if let pending = utterance { abandoned = record(for: pending, response: nil, endedAt: nil, outcome: .aborted) }
        utterancesStarted += 1
        utterance = Utterance(
            index: utterancesStarted,
            label: label,
            speechStartAt: micOpenAt.advanced(byMicroseconds: speechStartUs),
            speechEndAt: micOpenAt.advanced(byMicroseconds: speechEndUs),
            speechStartOffsetUs: speechStartUs,
            speechEndOffsetUs: speechEndUs
        )
        return abandoned
    }

    /// The client committed the utterance awaiting its answer (manual turns): its answer's
    /// first audio is also timed from here (`first_audio_from_commit_ms`).
    package mutating func utteranceCommitted(at: MonotonicInstant) {
        utterance?.committedAt = at
    }

    /// A chunk of agent audio arrived: part of the open turn, the tail of an interrupted one,
    /// or the start of a new turn.
    package mutating func agentAudio(_ chunk: AgentAudioChunk, at: MonotonicInstant) {
        lastAgentAudioAt = at
        if !isAgentSpeaking, let tail, belongsToTail(chunk, at: at, tail: tail) {
            self.tail?.lastAudioAt = at
            if bargeIn?.interruptedTurn == tail.turnNumber {
                bargeIn?.interruptedTurnAudio(durationUs: chunk.durationUs, at: at)
            }
            return  // a flushed client drops the cancelled turn's audio
        }
        if !isAgentSpeaking {
            tail = nil
            agentTurnsStarted += 1
            var turn = AgentTurn(number: agentTurnsStarted, role: role(ofTurnStartingAt: at), firstAudioAt: at, lastAudioAt: at)
            if case .response = turn.role {
                turn.owner = utterance
                utterance = nil
            }
            agentTurn = turn
            playback.startTurn(at: at)
        }
        agentTurn?.lastAudioAt = at
        agentTurn?.audioUs += chunk.durationUs
        if agentTurn?.turnKey == nil { agentTurn?.turnKey = chunk.turnKey }
        // The level matters until the turn's first voiced chunk (and its peak only to a turn that
        // has none, `silent_reply`): later chunks are not measured.
        // (The turn is open here; its fields are read through `?` so that it is not copied.)
        if agentTurn?.firstVoicedAt == nil {
            let level = chunk.rmsLevel
            if level > agentTurn?.peakRms ?? 0 { agentTurn?.peakRms = level }
            if level >= configuration.voicedLevel { agentTurn?.firstVoicedAt = at }
        }
        if let number = agentTurn?.number, bargeIn?.interruptedTurn == number {
            bargeIn?.interruptedTurnAudio(durationUs: chunk.durationUs, at: at)
        }
        let underrun = playback.enqueue(durationUs: chunk.durationUs, at: at)
        agentTurn?.continuity.chunkArrived(durationUs: chunk.durationUs, at: at, underrun: underrun)
    }

    /// The dialect's explicit end-of-turn signal arrived. One naming another turn is ignored:
    /// the interruption's acknowledgement ended an interrupted turn, and its late end-of-turn
    /// event changes nothing.
    package mutating func agentTurnEnded(turnKey: String? = nil, at: MonotonicInstant) -> TurnRecord? {
        guard let turn = agentTurn else { return nil }
        if let turnKey, let current = turn.turnKey, turnKey != current { return nil }
        return endAgentTurn(at: at, by: .event)
    }

    /// A user transcript arrived: the first non-empty partial after the speech began is the
    /// first partial, the first final one after the speech ended is the final, whether its text
    /// is the whole utterance or its last piece.
    package mutating func userTranscript(text: String, isFinal: Bool, at: MonotonicInstant) {
        guard !text.isEmpty else { return }
        if var pending = utterance {
            pending.noteTranscript(text: text, isFinal: isFinal, at: at)
            utterance = pending
        } else if var owner = agentTurn?.owner {
            // The answer has begun; a final transcript can still follow it.
            owner.noteTranscript(text: text, isFinal: isFinal, at: at)
            agentTurn?.owner = owner
        }
    }

    /// The server's endpointing ended the utterance (Deepgram `speech_final` or
    /// `UtteranceEnd`). For speech-to-text this is the answer, and ends the server's turn.
    package mutating func endpointReached(at: MonotonicInstant) -> TurnRecord? {
        guard var pending = utterance, at >= pending.speechEndAt, pending.endpointAt == nil else { return nil }
        pending.endpointAt = at
        return transcriptAnswered(pending, at: at)
    }

    /// The server's reading of the user's turn (Flux `TurnInfo`, `Utterance.note(_:at:)`): its
    /// end of turn after the speech ends the utterance as an endpoint does.
    package mutating func userTurnSignal(_ signal: UserTurnSignal, at: MonotonicInstant) -> TurnRecord? {
        guard var pending = utterance else { return nil }
        let ended = pending.note(signal, at: at)
        utterance = pending
        return ended ? transcriptAnswered(pending, at: at) : nil
    }

    /// `pending`, its endpoint or end of turn reached at `at`: for speech-to-text the answer,
    /// which ends the server's turn; a dialect that answers with audio waits for that.
    private mutating func transcriptAnswered(_ pending: Utterance, at: MonotonicInstant) -> TurnRecord? {
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
    package mutating func serverLatency(_ metric: MetricName) -> Bool {
        let turnNumber: Int
        let role: AgentTurnRole?
        if let agentTurn {
            (turnNumber, role) = (agentTurnsEnded + 1, agentTurn.role)
        } else if utterance != nil {
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

    /// Ends the open turn if its audio has been quiet for `quietMs` and has played out; its end is its last chunk's arrival.
    package mutating func checkQuiet(at now: MonotonicInstant) -> (ended: Bool, record: TurnRecord?) {
        guard let due = nextQuietCheck, due <= now, let lastAudioAt = agentTurn?.lastAudioAt else { return (false, nil) }
        return (true, endAgentTurn(at: lastAudioAt, by: .quietGap))
    }

    /// The silent replies of the turns that ended since the last call (see `SilentReply`).
    package mutating func takeSilentReplies() -> [SilentReply] {
        guard !silentReplies.isEmpty else { return [] }
        defer { silentReplies = [] }
        return silentReplies
    }

    /// Closes the utterances still waiting for (the end of) their answer: a wait step timed
    /// out or the attempt ended. What was measured so far is kept (censored, not dropped).
    package mutating func finishPendingUtterance(outcome: TurnOutcome) -> [TurnRecord] {
        var records: [TurnRecord] = []
        if let turn = agentTurn, let owner = turn.owner, case .response(let premature) = turn.role {
            // The answer is still under way: it no longer belongs to a waiting utterance.
            agentTurn?.owner = nil
            agentTurn?.role = .unsolicited
            let heard = backchannels.turnEnded(turn.number, by: nil, lastAudioAt: turn.lastAudioAt)
            records.append(record(for: owner, response: turn, endedAt: nil, outcome: premature ? .prematureResponse : outcome).with(heard))
        }
        if let pending = utterance {
            utterance = nil
            records.append(record(for: pending, response: nil, endedAt: nil, outcome: outcome))
        }
        return records
    }

    private mutating func endAgentTurn(at: MonotonicInstant, by cause: TurnEndCause) -> TurnRecord? {
        guard let turn = agentTurn else { return nil }
        let interrupted = cause == .interruption
        agentTurn = nil
        agentTurnsEnded += 1
        lastEndedTurnRole = turn.role
        let heardBackchannels = backchannels.turnEnded(turn.number, by: cause, lastAudioAt: turn.lastAudioAt)
        if !interrupted, turn.firstVoicedAt == nil {
            noteSilentReply(turn, endedAt: at)
        }
        switch turn.role {
        case .greeting:
            if let readyAt { greetingUs = turn.firstAudioAt.microseconds(since: readyAt) }
            return nil
        case .unsolicited:
            return nil
        case .response(let premature):
            guard let owner = turn.owner else { return nil }
            let outcome: TurnOutcome = premature ? .prematureResponse : (interrupted ? .interrupted : .completed)
            var row = record(for: owner, response: turn, endedAt: at, outcome: outcome)
            row.turnEndBy = cause
            return row.with(heardBackchannels)
        }
    }

    // Barge-ins (docs/metrics.md; their signals: `TurnTracker+BargeIn.swift`).

    /// A barge-in starts at `startedAt` (`T_bi_start`): the speech start of the utterance just
    /// begun with `utteranceStarted`, or, with `commandSentAt`, the dialect's interrupt command
    /// (a row of its own, with no speech).
    package mutating func bargeInStarted(
        label: String,
        at startedAt: MonotonicInstant,
        commandSentAt: MonotonicInstant? = nil,
        intTimeoutMs: Int
    ) {
        if let previous = bargeIn, let index = previous.utteranceIndex { settledBargeIns[index] = previous }
        backchannels.bargeInStarted(at: startedAt)
        // A command has no utterance, but its row takes the next turn number.
        if commandSentAt != nil { utterancesStarted += 1 }
        // The caller talks over the agent: what they hear of it from here is not a stall.
        agentTurn?.continuity.stop(at: startedAt)
        bargeIn = BargeIn(
            utteranceIndex: commandSentAt == nil ? utterancesStarted : nil,
            label: label,
            startedAt: startedAt,
            commandSentAt: commandSentAt,
            deadline: startedAt.advanced(byMilliseconds: Int64(intTimeoutMs)),
            interruptedTurn: agentTurn?.number
        )
    }

    /// A backchannel's speech starts at `at`: whether the agent stops for it within `stopWindowMs`.
    package mutating func backchannelStarted(at: MonotonicInstant, stopWindowMs: Int) {
        backchannels.started(at: at, over: agentTurn?.number, stopWindowMs: stopWindowMs)
    }

    /// The server signalled an interruption at `at`: an acknowledgement of the barge-in being
    /// measured (when it came after `T_bi_start` while the agent was audible), a playback
    /// flush, and the end of the agent's turn. Returns the interrupted turn's row.
    package mutating func bargeInSignal(_ signal: BargeInSignal, at: MonotonicInstant) -> TurnRecord? {
        let audible = isAgentAudible(at: at)
        if audible { backchannels.interruptionSignalled(at: at) }
        switch signal {
        case .userSpeechStarted:
            guard audible else { return nil }  // the start of a normal user turn
            bargeIn?.acknowledge(at: at)
        case .interrupted:
            if audible { bargeIn?.acknowledge(at: at) }
        case .responseCancelled:
            if let started = bargeIn?.startedAt, at >= started, bargeIn?.cancelledAt == nil {
                bargeIn?.cancelledAt = at
            }
            // It answers a command (the first acknowledgement after it); for speech, VAD has
            // usually acknowledged already.
            if audible || bargeIn?.commandSentAt != nil { bargeIn?.acknowledge(at: at) }
        }
        playback.flush(at: at)
        guard let turn = agentTurn else { return nil }
        tail = InterruptedTail(turnNumber: turn.number, turnKey: turn.turnKey, lastAudioAt: turn.lastAudioAt)
        return endAgentTurn(at: at, by: .interruption)
    }

    /// The server answered the interrupt command being measured with "nothing to cancel" at
    /// `at`: its reply had been delivered and completed first. The command is answered (its
    /// `int_cmd_rtt_ms` runs to here) and counted as a late cancel. False when no command waits.
    package mutating func commandFoundNothingToCancel(at: MonotonicInstant) -> Bool {
        guard let command = bargeIn, let sentAt = command.commandSentAt, at >= sentAt else { return false }
        bargeIn?.lateCancel = true
        bargeIn?.acknowledge(at: at)
        return true
    }

    /// The row of the interrupt command being measured.
    package mutating func finishCommandInterruption() -> TurnRecord? {
        guard let command = bargeIn, command.utteranceIndex == nil else { return nil }
        let row = Utterance(
            index: utterancesStarted,
            label: command.label,
            speechStartAt: command.startedAt,
            speechEndAt: command.startedAt
        )
        bargeIn = nil
        var record = record(for: row, response: nil, endedAt: nil, outcome: command.isAcknowledged ? .interrupted : .timedOut)
        command.fill(&record)
        return record
    }

    /// The barge-in measured for utterance `index`, handed to its row once.
    private mutating func takeBargeIn(of index: Int) -> BargeIn? {
        if let bargeIn, bargeIn.utteranceIndex == index {
            self.bargeIn = nil
            return bargeIn
        }
        return settledBargeIns.removeValue(forKey: index)
    }

    /// A greeting or reply that ended with no voiced audio; unsolicited turns are not replies.
    private mutating func noteSilentReply(_ turn: AgentTurn, endedAt: MonotonicInstant) {
        let label: String?
        switch turn.role {
        case .greeting: label = nil
        case .response: label = turn.owner?.label ?? "?"
        case .unsolicited: return
        }
        silentReplies.append(
            SilentReply(
                turnNumber: turn.number,
                label: label,
                audioUs: turn.audioUs,
                peakRms: turn.peakRms,
                endedAt: endedAt
            )
        )
    }

    private mutating func record(
        for utterance: Utterance,
        response: AgentTurn?,
        endedAt: MonotonicInstant?,
        outcome: TurnOutcome
    ) -> TurnRecord {
        utterancesRecorded += 1
        var row = TurnRecord(
            client: client,
            iteration: iteration,
            turn: utterance.index,
            label: utterance.label,
            outcome: outcome,
            speechStartOffsetUs: utterance.speechStartOffsetUs,
            speechEndOffsetUs: utterance.speechEndOffsetUs
        )
        row.speechStartAt = utterance.speechStartAt
        row.userTranscriptFirstPartialUs = utterance.firstPartialTranscriptAt?.microseconds(since: utterance.speechStartAt)
        row.userTranscriptFinalUs = utterance.finalTranscriptAt?.microseconds(since: utterance.speechEndAt)
        row.endpointUs = utterance.endpointAt?.microseconds(since: utterance.speechEndAt)
        utterance.fillTurnDetection(&row, countsResumes: configuration.countsTurnResumes)
        takeBargeIn(of: utterance.index)?.fill(&row)
        if let continuity = response?.continuity, continuity.chunks > 0 {
            row.stallCount = continuity.stallCount
            row.stallUs = continuity.stallUs
            row.replyRTF = continuity.replyRTF
        }
        // A premature response has no latency: it would be negative (docs/metrics.md).
        guard let response, outcome != .prematureResponse else { return row }
        row.firstAudioFromEndUs = response.firstAudioAt.microseconds(since: utterance.speechEndAt)
        row.firstAudioFromStartUs = response.firstAudioAt.microseconds(since: utterance.speechStartAt)
        row.firstVoicedAudioFromEndUs = response.firstVoicedAt?.microseconds(since: utterance.speechEndAt)
        row.firstAudioFromCommitUs = utterance.committedAt.map { response.firstAudioAt.microseconds(since: $0) }
        row.turnDurationUs = endedAt?.microseconds(since: response.firstAudioAt)
        return row
    }
}
