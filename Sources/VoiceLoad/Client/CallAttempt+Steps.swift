import WSCore

/// What the scenario's steps decide about the caller, at the instant each starts: the
/// condition of a `wait` step, the utterances and barge-ins they begin, what they send, the
/// tool calls they answer. The hang-up is the connection's (`CallAttempt.swift`). The steps' sequencing (and their suspensions) stays
/// with `VirtualClient`.
extension CallAttempt {
    /// The condition a `wait` step starting at `now` waits for; `graceMs` is the scenario's
    /// quiet gap, the time a greeting has to begin after ready.
    func condition(for target: WaitTarget, graceMs: Int, at now: MonotonicInstant) -> WaitCondition {
        switch target {
        case .ready:
            return .ready
        case .greeting:
            return .greeting(graceEndsAt: (readyAt ?? now).advanced(byMilliseconds: Int64(graceMs)))
        case .agentAudio:
            return .agentAudio(turnsStartedBefore: state.tracker.agentTurnsStarted)
        case .agentTurnEnd:
            // The answer to the latest utterance; with none waiting, the current or next turn.
            return state.tracker.latestUtteranceRecorded ? .agentTurnsEnded(state.tracker.agentTurnsEnded + 1) : .latestUtteranceRecorded
        case .quiet(let ms):
            return .quiet(ms: ms, since: now)
        case .transcript(let role):
            return .event(EventMatch(kind: .transcript, role: role))
        case .toolCall(let toolName):
            return .event(EventMatch(kind: .toolCall, toolName: toolName))
        case .event(let kind):
            return .event(EventMatch(kind: kind))
        }
    }

    /// A `wait` step ran out of time and the scenario goes on (`on_timeout: continue`): an
    /// answer that did not come (or end) in time is censored, not dropped.
    mutating func waitGaveUp(on target: WaitTarget) -> [Action] {
        guard case .agentTurnEnd = target else { return [] }
        return emit(state.tracker.finishPendingUtterance(outcome: .timedOut))
    }

    /// A `say` step (or a barge-in's speech) starts its clip at `micOpenAt`; the clip's speech
    /// lies at `speechStartUs…speechEndUs`. A barge-in's speech is measured from its start, with
    /// `bargeInTimeoutMs` as its `int_timeout_ms`. Hands out the row of an utterance still
    /// waiting for its answer (now abandoned).
    mutating func utteranceStarted(
        label: String,
        micOpenAt: MonotonicInstant,
        speechStartUs: Int64,
        speechEndUs: Int64,
        bargeInTimeoutMs: Int? = nil
    ) -> [Action] {
        let abandoned = state.tracker.utteranceStarted(
            label: label,
            micOpenAt: micOpenAt,
            speechStartUs: speechStartUs,
            speechEndUs: speechEndUs
        )
        if let bargeInTimeoutMs {
            let speechStartsAt = micOpenAt.advanced(byMicroseconds: speechStartUs)
            state.tracker.bargeInStarted(label: label, at: speechStartsAt, intTimeoutMs: bargeInTimeoutMs)
        }
        return emit(abandoned)
    }

    /// A `backchannel` step starts its clip at `micOpenAt`, its speech `speechStartUs` in: no
    /// utterance of its own, but whether the agent stops for it within `stopWindowMs`.
    mutating func backchannelStarted(micOpenAt: MonotonicInstant, speechStartUs: Int64, stopWindowMs: Int) {
        state.tracker.backchannelStarted(at: micOpenAt.advanced(byMicroseconds: speechStartUs), stopWindowMs: stopWindowMs)
    }

    /// The utterance's clip has been sent, at `now`. On dialects where the client ends its turns
    /// (OpenAI manual turns) the turn's boundary goes out, on a `connected` attempt, and the
    /// utterance is committed then: its answer is also timed from here
    /// (`first_audio_from_commit_ms`).
    mutating func clipSent(connected: Bool, at now: MonotonicInstant) -> [Action] {
        let boundary = sendUtteranceEnd()
        guard connected, !boundary.isEmpty else { return [] }
        state.tracker.utteranceCommitted(at: now)
        return boundary
    }

    /// The label of the next utterance when its step names none: `turn3`, `barge_in3`.
    func nextUtteranceLabel(_ prefix: String) -> String {
        "\(prefix)\(state.tracker.utterancesStarted + 1)"
    }

    /// A barge-in step sends the interrupt command at `now`, measured under `label`.
    mutating func interruptCommandSent(label: String, at now: MonotonicInstant, intTimeoutMs: Int) -> [Action] {
        state.tracker.bargeInStarted(label: label, at: now, commandSentAt: now, intTimeoutMs: intTimeoutMs)
        return send(.interrupt)
    }

    /// The interrupt command's interruption has settled: its row is complete.
    mutating func commandInterruptionFinished() -> [Action] {
        emit(state.tracker.finishCommandInterruption())
    }

    /// A `tool_reply` step whose wait for a call was met takes the oldest one waiting for its result.
    mutating func takeToolCall() -> ToolCall {
        state.pendingToolCalls.removeFirst()
    }

    /// A `finalize` step sends the dialect's finalize request at `now`; the wait for the result
    /// it flushes (`finalized`) measures `finalize_ms` when it is met.
    mutating func finalizeRequested(at now: MonotonicInstant) -> [Action] {
        state.finalizeSentAt = now
        state.finalizedAt = nil
        return send(.commit)
    }
}
