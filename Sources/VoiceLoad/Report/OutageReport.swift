import WSCore

/// A stretch of the run in which every attempt to reach the endpoint failed (`OutageTracker`),
/// in seconds from the run's start.
package struct OutageReport: Codable, Sendable, Hashable {
    private enum CodingKeys: String, CodingKey {
        case startS = "start_s"
        case endS = "end_s"
        case durationS = "duration_s"
        case attempts, errors
        case recoveryMs = "recovery_ms"
    }

    /// When the first failed attempt started.
    package var startS: Double
    /// When the first attempt that got ready again started; nil when the run ended first.
    package var endS: Double?
    /// To `endS`, or to the run's end.
    package var durationS: Double
    /// Attempts that failed in it.
    package var attempts: Int
    /// Those failures by error class.
    package var errors: [String: Int]
    /// From `endS` to that attempt's ready: how long the first caller waited once the endpoint
    /// answered again.
    package var recoveryMs: Double?

    package init(startS: Double, endS: Double?, durationS: Double, attempts: Int, errors: [String: Int], recoveryMs: Double?) {
        self.startS = startS
        self.endS = endS
        self.durationS = durationS
        self.attempts = attempts
        self.errors = errors
        self.recoveryMs = recoveryMs
    }

    /// `outage` on the clock of a run that started at `runStartedAt` and lasted `runDurationS`.
    package init(_ outage: OutageTracker.Outage, runStartedAt: MonotonicInstant, runDurationS: Double) {
        let startS = Self.rounded(max(0, outage.startedAt.milliseconds(since: runStartedAt)) / 1_000)
        let endS = outage.endedAt.map { Self.rounded(max(0, $0.milliseconds(since: runStartedAt)) / 1_000) }
        self.init(
            startS: startS,
            endS: endS,
            durationS: Self.rounded(max(0, (endS ?? runDurationS) - startS)),
            attempts: outage.attempts,
            errors: outage.errors,
            recoveryMs: outage.recoveryMs.map { ($0 * 10).rounded() / 10 }
        )
    }

    private static func rounded(_ seconds: Double) -> Double { (seconds * 1_000).rounded() / 1_000 }

    /// One line: `endpoint unavailable 19.9 s → 31.2 s (11.3 s, 74 attempts, connect_refused); ready again 12.3 ms after`.
    package var text: String {
        let classes = errors.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            .map { errors.count == 1 ? $0.key : "\($0.key) \($0.value)" }.joined(separator: ", ")
        let end = endS.map { "\(Self.oneDecimal($0)) s" } ?? "the run's end"
        let recovery = recoveryMs.map { "; the first session was ready \(Self.oneDecimal($0)) ms after" } ?? ""
        return
            "endpoint unavailable \(Self.oneDecimal(startS)) s → \(end) (\(Self.oneDecimal(durationS)) s, \(attempts) attempts, \(classes))\(recovery)"
    }

    private static func oneDecimal(_ value: Double) -> String { String((value * 10).rounded() / 10) }
}
