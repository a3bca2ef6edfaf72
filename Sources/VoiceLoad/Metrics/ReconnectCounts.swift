/// How a run's reconnects went (`reconnects` in report.json), counted apart from sessions:
/// every failure that led to a reconnect is an error too.
package struct ReconnectCounts: Sendable, Hashable, Codable {
    /// Reconnects made.
    package var attempts = 0
    /// Sessions that completed after at least one reconnect.
    package var recovered = 0
    /// Sessions that failed on their last attempt, every reconnect spent.
    package var exhausted = 0
    /// Reconnects by the error class of the failure that caused them.
    package var byClass: [String: Int] = [:]

    package init() {}

    enum CodingKeys: String, CodingKey {
        case attempts, recovered, exhausted
        case byClass = "by_class"
    }

    /// A reconnect after a failure counted under the error class `name`.
    mutating func reconnected(afterErrorNamed name: String) {
        attempts += 1
        byClass[name, default: 0] += 1
    }

    /// A session ended: recovered or exhausted, or neither.
    mutating func add(_ session: SessionRecord) {
        if session.attempts > 1, session.outcome == .completed { recovered += 1 }
        if session.reconnectsExhausted { exhausted += 1 }
    }

    /// Sums of both (merged reports).
    package static func + (lhs: ReconnectCounts, rhs: ReconnectCounts) -> ReconnectCounts {
        var total = lhs
        total.attempts += rhs.attempts
        total.recovered += rhs.recovered
        total.exhausted += rhs.exhausted
        total.byClass.merge(rhs.byClass, uniquingKeysWith: +)
        return total
    }
}
