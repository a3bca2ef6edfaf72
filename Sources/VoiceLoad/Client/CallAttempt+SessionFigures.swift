import WSCore

/// The figures of the session's row (sessions.csv, docs/metrics.md "Session metrics") that
/// run between the attempt's instants, in µs. The row's figures are the call's last attempt's.
extension CallAttempt {
    /// Writes the attempt's figures into the session's row: `rest_setup_ms`, `connect_ms`,
    /// `started_ms` (from the open), and once ready `ready_ms` (from the open; absent on a
    /// dialect whose ready signal is the open itself), `session_setup_total_ms` (from the
    /// attempt's start, the REST step included), `ready_from_scheduled_ms` (from when the load
    /// model meant the session to start, `scheduledAt`), and `greeting_ms`.
    func fillSessionFigures(of row: inout SessionRecord, scheduledAt: MonotonicInstant?) {
        if let restStartedAt, let restAnsweredAt { row.restSetupUs = restAnsweredAt.microseconds(since: restStartedAt) }
        if let openedAt, let sessionStartedAt = state.sessionStartedAt { row.startedUs = sessionStartedAt.microseconds(since: openedAt) }
        if let connectStartedAt, let openedAt {
            row.connectUs = openedAt.microseconds(since: connectStartedAt)
            if let readyAt {
                if readySignal == .event { row.readyUs = readyAt.microseconds(since: openedAt) }
                row.sessionSetupTotalUs = readyAt.microseconds(since: restStartedAt ?? connectStartedAt)
                row.readyFromScheduledUs = readyAt.microseconds(since: scheduledAt ?? restStartedAt ?? connectStartedAt)
            }
        }
        row.greetingUs = state.tracker.greetingUs
        row.backchannels = state.tracker.backchannels.total
    }
}
