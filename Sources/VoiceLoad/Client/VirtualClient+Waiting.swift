/// Steps suspend here until their condition holds (`CallAttempt+Waiting` decides when); the
/// attempt's `endStep` action resumes them.
extension VirtualClient {
    /// Waits for `condition`; throws `StepTimedOut` after `timeoutMs`, or the attempt's failure.
    /// Throws `SessionWoundDown` when the run winds down, unless the caller is hanging up.
    func wait(for condition: WaitCondition, step: String, timeoutMs: Int) async throws {
        let actions: [CallAttempt.Action]
        switch attempt.beginWait(for: condition, step: step, timeoutMs: timeoutMs, at: .now()) {
        case .ended(let end):
            // Met already, or ended at once (the attempt's failure, a wind-down).
            if let error = end.error { throw error }
            return
        case .waiting(let timers):
            actions = timers
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            stepContinuation = continuation
            perform(actions)
        }
    }

    /// Waits as a scenario step: a timeout fails the attempt (`timeout_<step>`), or with
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
            .missingTurnEnd,
            .text("agent audio ended \(seconds) s before the \(timeoutMs) ms wait ran out, no end-of-turn event")
        )
    }

    /// Resumes the waiting step if its condition now holds.
    func checkPendingWait() {
        perform(attempt.checkWait(at: .now()))
    }
}
