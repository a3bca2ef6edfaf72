import WSCore

/// Connection attempts and the outages they show: a stretch in which every attempt to reach
/// the endpoint failed before it was ready. Fed as things happen (an attempt's failure when it
/// fails, a ready when it comes), so it keeps no list of attempts: only the streak under way
/// and the outages already closed.
///
/// An outage opens at the start of the first attempt of a streak of failures (attempts that
/// failed before ready, with no ready among them) once the streak holds at least
/// `minimumAttempts` attempts over at least `minimumMs`; it closes when an attempt gets ready
/// again: the endpoint was back when that attempt started (the outage's end), and the caller was
/// served again when it got ready (`recoveryMs` after the end). A streak still open when the run
/// ends is an outage with no end.
package struct OutageTracker: Sendable, Hashable {
    /// An outage needs this many failed attempts in a row…
    package static let minimumAttempts = 3
    /// …over at least this long, from the first one's start to the last one's failure.
    package static let minimumMs: Double = 1_000

    /// One stretch in which the endpoint could not be reached, on the run's clock.
    package struct Outage: Sendable, Hashable {
        package var startedAt: MonotonicInstant
        /// When the first attempt that got ready again started; nil when the run ended first.
        package var endedAt: MonotonicInstant?
        /// From `endedAt` to that attempt's ready.
        package var recoveryMs: Double?
        /// Attempts that failed in it.
        package var attempts: Int
        /// Those failures by error class.
        package var errors: [String: Int]
    }

    private struct Streak: Hashable {
        var firstStartedAt: MonotonicInstant
        var lastFailedAt: MonotonicInstant
        var attempts: Int
        var errors: [String: Int]

        var isOutage: Bool {
            attempts >= OutageTracker.minimumAttempts
                && lastFailedAt.milliseconds(since: firstStartedAt) >= OutageTracker.minimumMs
        }
    }

    /// Every attempt to connect: first attempts and reconnects.
    package private(set) var attempts = 0
    /// Attempts that failed before the session was ready.
    package private(set) var failedBeforeReady = 0
    /// Outages closed so far, in order.
    package private(set) var closed: [Outage] = []
    private var streak: Streak?

    package init() {}

    /// An attempt ended; `failure` is its error class when it failed before it was ready.
    package mutating func attemptEnded(startedAt: MonotonicInstant, endedAt: MonotonicInstant, failureBeforeReady failure: String?) {
        attempts += 1
        guard let failure else { return }
        failedBeforeReady += 1
        var current = streak ?? Streak(firstStartedAt: startedAt, lastFailedAt: endedAt, attempts: 0, errors: [:])
        current.firstStartedAt = min(current.firstStartedAt, startedAt)
        current.lastFailedAt = max(current.lastFailedAt, endedAt)
        current.attempts += 1
        current.errors[failure, default: 0] += 1
        streak = current
    }

    /// An attempt that started at `startedAt` got ready at `readyAt`: a streak of failures that
    /// began before that attempt ends. An attempt older than the streak says nothing of the
    /// endpoint since (it was let in before the failures began), and leaves the streak open.
    package mutating func ready(attemptStartedAt startedAt: MonotonicInstant, at readyAt: MonotonicInstant) {
        guard let current = streak, startedAt >= current.firstStartedAt else { return }
        streak = nil
        guard current.isOutage else { return }
        closed.append(
            Outage(
                startedAt: current.firstStartedAt,
                endedAt: startedAt,
                recoveryMs: readyAt.milliseconds(since: startedAt),
                attempts: current.attempts,
                errors: current.errors
            )
        )
    }

    /// The outages of the run: those closed, and the streak under way if it is one.
    package var outages: [Outage] {
        guard let current = streak, current.isOutage else { return closed }
        return closed + [
            Outage(startedAt: current.firstStartedAt, endedAt: nil, recoveryMs: nil, attempts: current.attempts, errors: current.errors)
        ]
    }
}
