import WSCore

/// What ends an attempt early: a failure, which the reconnect policy may retry with a new
/// attempt of the same call, and the run winding down (a signal, or the run's drain limit),
/// after which the caller hangs up by the deadline and no step starts. `VirtualClient`
/// carries out the reconnect and the hang-up.
extension CallAttempt {
    /// Throws why no step may start now: the attempt's failure, or the run winding down.
    func checkStepMayStart() throws {
        if let failure { throw failure }
        if state.windDownDeadline != nil { throw SessionWoundDown() }
    }

    /// The run winds down by `deadline`; a later call can only bring the deadline forward. The
    /// waiting step wakes with `woundDown` and a connection being opened is abandoned; a
    /// hang-up already under way is cut off at the deadline instead.
    mutating func windDown(by deadline: MonotonicInstant) -> [Action] {
        let deadline = min(deadline, state.windDownDeadline ?? deadline)
        state.windDownDeadline = deadline
        if hangingUp { return cutWait(at: deadline) }
        return endWait(.woundDown) + (openedAt == nil ? [.abandonConnect] : [])
    }

    /// What is left at `now` of the wind-down's grace period for the hang-up, in whole
    /// milliseconds; nil when the run is not winding down or nothing is left (the connection
    /// then closes at once).
    func windDownHangUpMs(at now: MonotonicInstant) -> Int? {
        guard let windDownDeadline = state.windDownDeadline else { return nil }
        let remainingMs = Int(windDownDeadline.milliseconds(since: now).rounded(.down))
        return remainingMs > 0 ? remainingMs : nil
    }

    /// What follows this attempt's `failure`: a reconnect after its backoff, or the failure
    /// stands. Never a reconnect while the run winds down.
    func afterFailure(_ failure: SessionFailure) -> ReconnectPolicy.Decision {
        attempts.decision(after: failure.errorClass, windingDown: state.windDownDeadline != nil)
    }

    /// The call's attempts once this one is over, for its next attempt.
    var attemptsAfterThis: SessionAttempts {
        attempts.next(afterUtterances: state.tracker.utterancesStarted)
    }
}
