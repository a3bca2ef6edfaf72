import WSCore

/// Barge-ins (docs/metrics.md): the caller talks over the agent, or
/// sends the dialect's interrupt command, and the server acknowledges, stops and cancels.
extension TurnTracker {
    /// What told the client the agent was interrupted.
    package enum BargeInSignal: Sendable, Hashable {
        /// `agent.interrupted`: an explicit acknowledgement or flush (`interrupted`, `clear`).
        case interrupted
        /// `user.speech_started`: counts only while the agent is audible (its turn is open or its
        /// audio still playing), since it fires on every utterance.
        case userSpeechStarted
        /// The interrupted response was cancelled (OpenAI `response.done` status `cancelled`).
        case responseCancelled
    }

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

    /// The server signalled an interruption at `at`: an acknowledgement of the barge-in being
    /// measured (when it came after `T_bi_start` while the agent was audible), a playback
    /// flush, and the end of the agent's turn. Returns the interrupted turn's row.
    package mutating func bargeInSignal(_ signal: BargeInSignal, at: MonotonicInstant) -> TurnRecord? {
        let audible = isAgentAudible(at: at)
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

    /// For an interrupt command: the moment its row can be written — the acknowledgement plus
    /// `quietMs` with no more audio of the interrupted turn, or the deadline with none.
    package var commandInterruptionSettlesAt: MonotonicInstant? {
        guard let bargeIn, bargeIn.utteranceIndex == nil else { return nil }
        guard bargeIn.isAcknowledged, let ackAt = bargeIn.ackAt else { return bargeIn.deadline }
        let lastAudio = max(ackAt, tail?.lastAudioAt ?? ackAt)
        return lastAudio.advanced(byMilliseconds: configuration.quietMs)
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
    mutating func takeBargeIn(of index: Int) -> BargeIn? {
        if let bargeIn, bargeIn.utteranceIndex == index {
            self.bargeIn = nil
            return bargeIn
        }
        return settledBargeIns.removeValue(forKey: index)
    }
}
