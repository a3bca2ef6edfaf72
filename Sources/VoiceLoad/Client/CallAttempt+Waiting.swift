import WSCore

/// Steps suspend until their condition holds. Every event and timer re-checks the pending
/// condition; conditions that become true with the passing of time (quiet, heard audio, think
/// time) also set the `recheck` timer for the moment they will.
extension CallAttempt {
    /// A step starts waiting for `condition` at `now`, for at most `timeoutMs`. When the
    /// condition holds already it goes on at once (`.ended(.met)`, and `wait` stays nil), as
    /// it ends at once after a failure, or when the run winds down and the caller is not
    /// hanging up; otherwise it waits, and the actions set its timers.
    mutating func beginWait(for condition: WaitCondition, step: String, timeoutMs: Int, at now: MonotonicInstant) -> WaitStart {
        if let failure { return .ended(.failed(failure)) }
        if state.windDownDeadline != nil, !hangingUp { return .ended(.woundDown) }
        state.awaitedEventArrived = false  // only events after the step began count
        if isSatisfied(condition, at: now) { return .ended(.met) }
        let endsAt = now.advanced(byMilliseconds: Int64(timeoutMs))
        state.wait = Wait(condition: condition, stepName: step, endsAt: endsAt)
        var timers: [Action] = [.schedule(.stepTimeout, at: endsAt)]
        if let recheck = recheckTimer(at: now) { timers.append(recheck) }
        return .waiting(timers)
    }

    /// Resumes the waiting step if its condition holds at `now`. A `finalize` step's wait
    /// that is met measures `finalize_ms`: from the request to the result it flushed. Runs for
    /// every frame while a step waits: going on waiting returns at most the one timer action.
    mutating func checkWait(at now: MonotonicInstant) -> WaitCheck {
        guard let wait = state.wait else { return .waiting(timer: nil) }
        guard isSatisfied(wait.condition, at: now) else { return .waiting(timer: recheckTimer(at: now)) }
        guard case .finalized = wait.condition, let sentAt = state.finalizeSentAt, let finalizedAt = state.finalizedAt else {
            return .met(endWait(.met))
        }
        return .met([.record(.metric(.finalizeMs, microseconds: finalizedAt.microseconds(since: sentAt)))] + endWait(.met))
    }

    /// The `recheck` timer fired at `now`: it is set no more, and the waiting step is checked.
    mutating func recheckDue(at now: MonotonicInstant) -> [Action] {
        state.recheckAt = nil
        return checkWait(at: now).actions
    }

    /// Wakes the waiting step with `end` (the attempt's failure, or a wind-down).
    mutating func endWait(_ end: StepEnd) -> [Action] {
        guard state.wait != nil else { return [] }
        state.wait = nil
        state.recheckAt = nil
        return [.cancel(.stepTimeout), .cancel(.recheck), .endStep(end)]
    }

    /// The run winds down by `deadline` while the caller hangs up: the hang-up's wait ends
    /// by then at the latest.
    func cutWait(at deadline: MonotonicInstant) -> [Action] {
        guard let wait = state.wait, wait.endsAt > deadline else { return [] }
        return [.schedule(.stepTimeout, at: deadline)]
    }

    mutating func waitTimedOut(at now: MonotonicInstant) -> [Action] {
        guard let wait = state.wait else { return [] }
        state.wait = nil
        state.recheckAt = nil
        let overdueUs = wait.condition.awaitsTurnEnd ? state.tracker.overdueTurnEndUs(at: now) : nil
        return [.cancel(.recheck), .endStep(.timedOut(StepTimedOut(step: wait.stepName, turnEndOverdueUs: overdueUs)))]
    }

    func isSatisfied(_ condition: WaitCondition, at now: MonotonicInstant) -> Bool {
        switch condition {
        case .ready: return readyAt != nil
        case .agentTurnsEnded(let count): return state.tracker.agentTurnsEnded >= count
        case .latestUtteranceRecorded: return state.tracker.latestUtteranceRecorded
        case .greeting(let graceEndsAt):
            if state.tracker.agentTurnsEnded >= 1 { return true }
            return !state.tracker.isAgentSpeaking && now >= graceEndsAt
        case .agentAudio(let before): return state.tracker.isAgentSpeaking || state.tracker.agentTurnsStarted > before
        case .event: return state.awaitedEventArrived
        case .toolCallPending: return !state.pendingToolCalls.isEmpty
        case .heard, .quiet, .until, .commandInterruptionSettled: return recheckAt(condition, now: now).map { $0 <= now } ?? false
        case .clipSent: return state.microphone.map { !$0.isSpeaking } ?? true
        case .sessionEnded: return state.sessionEndedAt != nil
        case .finalized: return state.finalizedAt != nil
        }
    }

    /// When a time-driven condition will hold, from what is known at `now`; nil when that
    /// depends on events still to come.
    func recheckAt(_ condition: WaitCondition, now: MonotonicInstant) -> MonotonicInstant? {
        switch condition {
        case .greeting(let graceEndsAt): return graceEndsAt
        case .quiet(let ms, let since):
            var quietSince = since
            if let last = state.tracker.lastAgentAudioAt { quietSince = max(quietSince, last) }
            if let drainsAt = state.tracker.playback.drainsAt { quietSince = max(quietSince, drainsAt) }
            return quietSince.advanced(byMilliseconds: Int64(ms))
        case .heard(let targetUs):
            // Only while the agent is speaking: a turn that ended short never reaches it.
            guard state.tracker.isAgentSpeaking || !state.tracker.playback.isDrained(at: now) else { return nil }
            return state.tracker.playback.instant(whenHeardReaches: targetUs)
        case .commandInterruptionSettled: return state.tracker.commandInterruptionSettlesAt
        case .until(let instant): return instant
        default: return nil
        }
    }

    /// Sets the `recheck` timer for when the waiting condition will hold, or cancels it: a
    /// moment already past that did not satisfy it (a greeting still playing at the end of its
    /// grace period) waits for events instead. nil when the timer stays as it is, as it does
    /// for most frames (`state.recheckAt` is when it is set for).
    private mutating func recheckTimer(at now: MonotonicInstant) -> Action? {
        var due: MonotonicInstant?
        if let wait = state.wait, let at = recheckAt(wait.condition, now: now), at > now { due = at }
        guard due != state.recheckAt else { return nil }
        state.recheckAt = due
        return due.map { .schedule(.recheck, at: $0) } ?? .cancel(.recheck)
    }
}
