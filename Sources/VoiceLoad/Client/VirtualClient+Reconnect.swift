import WSCore

/// The scenario's reconnect policy (`reconnect:`): a failed call attempt the policy retries
/// (`CallAttempt.afterFailure`) is recorded as an error, and after its backoff the scenario
/// runs again from its first step as a new attempt of the same call, on a fresh connection:
/// the same session of the report (same client and iteration).
extension VirtualClient {
    /// Runs the scenario, again after each failure the policy retries; throws the failure
    /// that stands. The backoff wakes for a wind-down (`SessionWoundDown`).
    @inline(never)
    func runReconnecting() async throws {
        while true {
            do {
                try await run(plan.scenario.steps)
                return
            } catch let failure as SessionFailure {
                let backoffMs = try reconnect(after: failure)
                let until = MonotonicInstant.now().advanced(byMilliseconds: Int64(backoffMs))
                try await wait(for: .until(until), step: "reconnect", timeoutMs: backoffMs + 10_000)
            }
        }
    }

    /// After `failure`: the backoff before the call's next attempt, which has started, or the
    /// failure thrown when the policy does not retry it. Out of line: see `VirtualClient+Steps`.
    @inline(never)
    private func reconnect(after failure: SessionFailure) throws -> Int {
        let decision = attempt.afterFailure(failure)
        guard case .reconnect(let backoffMs) = decision else {
            session.reconnectsExhausted = decision == .giveUp(exhausted: true)
            throw failure
        }
        let name = record(failure.errorClass, failure.evidence)
        recordAttemptEnded(failure: name)
        recorder.recordReconnect(afterErrorNamed: name)
        startNextAttempt()
        return backoffMs
    }

    /// Ends the failed attempt and starts the call's next; the session's row keeps its turns
    /// and counts the attempt, its figures are the new attempt's.
    private func startNextAttempt() {
        endAttempt()
        let attempts = attempt.attemptsAfterThis
        resetAttempt(attempts: attempts)
        let turns = session.turns
        session = SessionRecord(client: clientIndex, iteration: iteration)
        session.turns = turns
        session.attempts = attempts.number
    }
}
