/// A scenario's reconnect policy (`reconnect:`, off by default): after a failure it retries,
/// a session runs the scenario again from its first step on a fresh connection, up to
/// `attempts` times, waiting `backoffMs · 2^(k−1)` (at most `maxBackoffMs`) before reconnect k.
package struct ReconnectPolicy: Sendable, Hashable {
    /// Reconnects a session may make (1–10): it runs at most `attempts + 1` times.
    package var attempts: Int
    /// The wait before the first reconnect (1–60000 ms), doubled for each next one.
    package var backoffMs: Int
    /// The longest wait (≥ `backoffMs`).
    package var maxBackoffMs: Int

    package static let attemptsRange = 1...10
    package static let backoffRangeMs = 1...60_000

    package init(attempts: Int, backoffMs: Int, maxBackoffMs: Int) {
        self.attempts = attempts
        self.backoffMs = backoffMs
        self.maxBackoffMs = maxBackoffMs
    }

    /// What to do after a failed attempt.
    package enum Decision: Sendable, Hashable {
        /// Run the scenario again after waiting this long.
        case reconnect(afterMs: Int)
        /// Let the failure stand; `exhausted` when only the spent attempts stopped a retry.
        case giveUp(exhausted: Bool)
    }

    /// The wait before reconnect number `reconnect` (1-based): `backoffMs · 2^(reconnect−1)`,
    /// capped at `maxBackoffMs`.
    package func backoffMs(beforeReconnect reconnect: Int) -> Int {
        RetryBackoff(minMs: backoffMs, maxMs: maxBackoffMs).ceilingMs(afterFailures: max(1, reconnect))
    }

    /// After a failure of class `errorClass` with `reconnectsMade` reconnects behind the
    /// session: reconnect unless the class is never retried, the attempts are spent, or the
    /// run is winding down.
    package func decision(after errorClass: ErrorClass, reconnectsMade: Int, windingDown: Bool) -> Decision {
        guard Self.retries(errorClass), !windingDown else { return .giveUp(exhausted: false) }
        guard reconnectsMade < attempts else { return .giveUp(exhausted: true) }
        return .reconnect(afterMs: backoffMs(beforeReconnect: reconnectsMade + 1))
    }

    /// Whether a failure of this class is worth a reconnect: never on authentication (401 and
    /// 403, at the upgrade, the REST step or a WebRTC offer), nor on an interface the server no longer speaks,
    /// nor on vload's own or the scenario's fault.
    package static func retries(_ errorClass: ErrorClass) -> Bool {
        switch errorClass {
        case .upgradeRejected(status: 401), .upgradeRejected(status: 403),
            .restRejected(status: 401), .restRejected(status: 403),
            .signallingRejected(status: 401), .signallingRejected(status: 403),
            .betaAPIRemoved, .generatorError, .toolReplyMissing:
            return false
        default:
            return true
        }
    }
}
