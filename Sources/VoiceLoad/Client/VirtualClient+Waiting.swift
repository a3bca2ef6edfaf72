/// Steps suspend here until their condition holds (`CallAttempt+Waiting` decides when); the
/// attempt's `endStep` action resumes them.
extension VirtualClient {
    /// Waits for `condition`; throws `StepTimedOut` after `timeoutMs`, or the attempt's failure.
    /// Throws `SessionWoundDown` when the run winds down, unless the caller is hanging up.
    @inline(never)
    func wait(for condition: WaitCondition, step: String, timeoutMs: Int) async throws {
        guard let timers = try beginWait(for: condition, step: step, timeoutMs: timeoutMs) else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            stepContinuation = continuation
            perform(timers)
        }
    }

    /// The wait's timers to set, or nil when it is over at once: met already, or ended by the
    /// attempt's failure or a wind-down (thrown). Out of line: see `VirtualClient+Steps`.
    @inline(never)
    private func beginWait(for condition: WaitCondition, step: String, timeoutMs: Int) throws -> [CallAttempt.Action]? {
        switch attempt.beginWait(for: condition, step: step, timeoutMs: timeoutMs, at: .now()) {
        case .ended(let end):
            if let error = end.error { throw error }
            return nil
        case .waiting(let timers):
            return timers
        }
    }

    /// Waits as a scenario step: a timeout fails the attempt (`timeout_<step>`), or with
    /// `on_timeout: continue` is counted and the scenario goes on. Returns whether the
    /// condition was met.
    @discardableResult
    @inline(never)
    func waitStep(for condition: WaitCondition, step: String, timeoutMs: Int, onTimeout: StepTimeoutPolicy = .fail) async throws -> Bool {
        do {
            try await wait(for: condition, step: step, timeoutMs: timeoutMs)
            return true
        } catch let timedOut as StepTimedOut {
            try stepTimedOut(timedOut, condition: condition, step: step, timeoutMs: timeoutMs, onTimeout: onTimeout)
            return false
        }
    }

    /// A step's wait timed out: the attempt fails (thrown), or the timeout is counted.
    @inline(never)
    private func stepTimedOut(
        _ timedOut: StepTimedOut,
        condition: WaitCondition,
        step: String,
        timeoutMs: Int,
        onTimeout: StepTimeoutPolicy
    ) throws {
        let failure = Self.failure(of: timedOut, condition: condition, timeoutMs: timeoutMs)
        guard onTimeout == .continue else {
            fail(failure)
            throw failure
        }
        recorder.recordStepTimeout(step)
        // A missing end-of-turn event is the endpoint's fault even when the scenario goes on.
        if failure.errorClass == .missingTurnEnd { record(failure.errorClass, failure.evidence) }
    }

    /// `timeout_<step>`, or `missing_turn_end` when the wait was for the end of a turn whose
    /// audio had stopped (on a dialect whose turns end by event).
    static func failure(of timedOut: StepTimedOut, condition: WaitCondition, timeoutMs: Int) -> SessionFailure {
        guard let overdueUs = timedOut.turnEndOverdueUs else {
            return SessionFailure(.timeout(step: timedOut.step), .text(condition.timeoutText(afterMs: timeoutMs)))
        }
        let seconds = String((Double(overdueUs) / 100_000).rounded() / 10)
        return SessionFailure(
            .missingTurnEnd,
            .text("agent audio ended \(seconds) s before the \(timeoutMs) ms wait ran out, no end-of-turn event")
        )
    }

    /// Resumes the waiting step if its condition now holds.
    func checkPendingWait() {
        perform(attempt.checkWait(at: .now()).actions)
    }
}
