import NIOCore

/// Steps suspend here until their condition holds. Every event and timer re-checks the
/// pending condition; conditions that become true with the passing of time (quiet, heard
/// audio, think time) also set a timer for the moment they will.
extension VirtualClient {
    /// Waits for `condition`; throws `StepTimedOut` after `timeoutMs`, or the session's failure.
    /// Throws `SessionWoundDown` when the run winds down, unless the session is hanging up.
    func wait(for condition: WaitCondition, step: String, timeoutMs: Int) async throws {
        if let failure { throw failure }
        if windDownDeadline != nil, !hangingUp { throw SessionWoundDown() }
        awaitedEventArrived = false  // only events after the step began count
        if isSatisfied(condition, at: .now()) { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let endsAt = MonotonicInstant.now().advanced(byMilliseconds: Int64(timeoutMs))
            pendingWait = PendingWait(condition: condition, stepName: step, continuation: continuation, endsAt: endsAt)
            scheduleWaitTimer(at: endsAt)
            scheduleRecheck()
        }
    }

    func scheduleWaitTimer(at instant: MonotonicInstant) {
        waitTimer?.cancel()
        waitTimer = eventLoop.scheduleTask(deadline: instant.deadline) { [self] in
            self.assumeIsolated { $0.waitTimedOut() }
        }
    }

    /// Waits as a scenario step: a timeout fails the session (`timeout_<step>`), or with
    /// `on_timeout: continue` is counted and the scenario goes on. Returns whether the
    /// condition was met.
    @discardableResult
    func waitStep(for condition: WaitCondition, step: String, timeoutMs: Int, onTimeout: StepTimeoutPolicy = .fail) async throws -> Bool {
        do {
            try await wait(for: condition, step: step, timeoutMs: timeoutMs)
            return true
        } catch let timedOut as StepTimedOut {
            let failure = Self.failure(of: timedOut, condition: condition, timeoutMs: timeoutMs)
            guard onTimeout == .continue else {
                fail(failure)
                throw failure
            }
            recorder.recordStepTimeout(step)
            // A missing end-of-turn event is the endpoint's fault even when the scenario goes on.
            if failure.errorClass == .missingTurnEnd { record(failure.errorClass, failure.evidence) }
            return false
        }
    }

    /// `timeout_<step>`, or `missing_turn_end` when the wait was for the end of a turn whose
    /// audio had stopped (on a dialect whose turns end by event).
    static func failure(of timedOut: StepTimedOut, condition: WaitCondition, timeoutMs: Int) -> SessionFailure {
        guard let overdueMs = timedOut.turnEndOverdueMs else {
            return SessionFailure(.timeout(step: timedOut.step), .text(condition.timeoutText(afterMs: timeoutMs)))
        }
        let seconds = String((overdueMs / 100).rounded() / 10)
        return SessionFailure(
            .missingTurnEnd, .text("agent audio ended \(seconds) s before the \(timeoutMs) ms wait ran out, no end-of-turn event")
        )
    }

    private func waitTimedOut() {
        waitTimer = nil
        guard let pending = pendingWait else { return }
        pendingWait = nil
        cancelRecheck()
        let overdueMs = pending.condition.awaitsTurnEnd ? tracker.overdueTurnEndMs(at: .now()) : nil
        pending.continuation.resume(throwing: StepTimedOut(step: pending.stepName, turnEndOverdueMs: overdueMs))
    }

    /// Resumes the waiting step if its condition now holds.
    func checkPendingWait() {
        guard let pending = pendingWait else { return }
        guard isSatisfied(pending.condition, at: .now()) else {
            scheduleRecheck()
            return
        }
        pendingWait = nil
        waitTimer?.cancel()
        waitTimer = nil
        cancelRecheck()
        pending.continuation.resume()
    }

    /// Wakes the waiting step with `error` (the session's failure, or a wind-down).
    func abortPendingWait(throwing error: any Error) {
        guard let pending = pendingWait else { return }
        pendingWait = nil
        waitTimer?.cancel()
        waitTimer = nil
        cancelRecheck()
        pending.continuation.resume(throwing: error)
    }

    private func isSatisfied(_ condition: WaitCondition, at now: MonotonicInstant) -> Bool {
        switch condition {
        case .ready: return readyAt != nil
        case .agentTurnsEnded(let count): return tracker.agentTurnsEnded >= count
        case .latestUtteranceRecorded: return tracker.latestUtteranceRecorded
        case .greeting(let graceEndsAt):
            if tracker.agentTurnsEnded >= 1 { return true }
            return !tracker.isAgentSpeaking && now >= graceEndsAt
        case .agentAudio(let before): return tracker.isAgentSpeaking || tracker.agentTurnsStarted > before
        case .event: return awaitedEventArrived
        case .toolCallPending: return !pendingToolCalls.isEmpty
        case .heard, .quiet, .until, .commandInterruptionSettled: return recheckAt(condition).map { $0 <= now } ?? false
        case .clipSent: return microphone.map { !$0.isSpeaking } ?? true
        case .sessionEnded: return sessionEndedAt != nil
        case .finalized: return finalizedAt != nil
        }
    }

    /// When a time-driven condition will hold, from what is known now; nil when that depends
    /// on events still to come.
    private func recheckAt(_ condition: WaitCondition) -> MonotonicInstant? {
        switch condition {
        case .greeting(let graceEndsAt): return graceEndsAt
        case .quiet(let ms, let since):
            var quietSince = since
            if let last = tracker.lastAgentAudioAt { quietSince = max(quietSince, last) }
            if let drainsAt = tracker.playback.drainsAt { quietSince = max(quietSince, drainsAt) }
            return quietSince.advanced(byMilliseconds: Int64(ms))
        case .heard(let targetUs):
            // Only while the agent is speaking: a turn that ended short never reaches it.
            guard tracker.isAgentSpeaking || !tracker.playback.isDrained(at: .now()) else { return nil }
            return tracker.playback.instant(whenHeardReaches: targetUs)
        case .commandInterruptionSettled: return tracker.commandInterruptionSettlesAt
        case .until(let instant): return instant
        default: return nil
        }
    }

    private func scheduleRecheck() {
        cancelRecheck()
        // A moment already past that did not satisfy the condition (a greeting still playing
        // at the end of its grace period) waits for events instead.
        guard let pending = pendingWait, let due = recheckAt(pending.condition), due > .now() else { return }
        recheckTimer = eventLoop.scheduleTask(deadline: due.deadline) { [self] in
            self.assumeIsolated { $0.recheckDue() }
        }
    }

    private func recheckDue() {
        recheckTimer = nil
        checkPendingWait()
    }

    private func cancelRecheck() {
        recheckTimer?.cancel()
        recheckTimer = nil
    }
}
