import NIOCore

/// A point on the one monotonic clock vload uses for every interval.
///
/// It is the clock of `NIODeadline` (CLOCK_MONOTONIC), so timestamps taken in channel
/// handlers and the deadlines of paced sends are directly comparable.
package struct MonotonicInstant: Comparable, Hashable, Sendable {
    package var nanoseconds: UInt64

    @inlinable
    package init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    @inlinable
    package static func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: NIODeadline.now().uptimeNanoseconds)
    }

    @inlinable
    package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The NIO deadline for this instant, for scheduling timers on an event loop.
    @inlinable
    package var deadline: NIODeadline { .uptimeNanoseconds(nanoseconds) }

    @inlinable
    package func advanced(byNanoseconds delta: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(max(0, Int64(nanoseconds) + delta)))
    }

    @inlinable
    package func advanced(byMicroseconds delta: Int64) -> MonotonicInstant {
        advanced(byNanoseconds: delta * 1_000)
    }

    @inlinable
    package func advanced(byMilliseconds delta: Int64) -> MonotonicInstant {
        advanced(byNanoseconds: delta * 1_000_000)
    }

    /// Signed interval `self − earlier`, in nanoseconds.
    @inlinable
    package func nanoseconds(since earlier: MonotonicInstant) -> Int64 {
        Int64(bitPattern: nanoseconds &- earlier.nanoseconds)
    }

    /// Signed interval `self − earlier`, in microseconds.
    @inlinable
    package func microseconds(since earlier: MonotonicInstant) -> Int64 {
        nanoseconds(since: earlier) / 1_000
    }

    /// Signed interval `self − earlier`, in milliseconds.
    @inlinable
    package func milliseconds(since earlier: MonotonicInstant) -> Double {
        Double(nanoseconds(since: earlier)) / 1_000_000
    }
}
