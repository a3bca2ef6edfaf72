import NIOCore

/// A point on the one monotonic clock vload uses for every interval.
///
/// It is the clock of `NIODeadline` (CLOCK_MONOTONIC), so timestamps taken in channel
/// handlers and the deadlines of paced sends are directly comparable.
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    public var nanoseconds: UInt64

    @inlinable
    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    @inlinable
    public static func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: NIODeadline.now().uptimeNanoseconds)
    }

    @inlinable
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The NIO deadline for this instant, for scheduling timers on an event loop.
    @inlinable
    public var deadline: NIODeadline { .uptimeNanoseconds(nanoseconds) }

    @inlinable
    public func advanced(byNanoseconds delta: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(max(0, Int64(nanoseconds) + delta)))
    }

    @inlinable
    public func advanced(byMicroseconds delta: Int64) -> MonotonicInstant {
        advanced(byNanoseconds: delta * 1_000)
    }

    @inlinable
    public func advanced(byMilliseconds delta: Int64) -> MonotonicInstant {
        advanced(byNanoseconds: delta * 1_000_000)
    }

    /// Signed interval `self − earlier`, in nanoseconds.
    @inlinable
    public func nanoseconds(since earlier: MonotonicInstant) -> Int64 {
        Int64(bitPattern: nanoseconds &- earlier.nanoseconds)
    }

    /// Signed interval `self − earlier`, in microseconds.
    @inlinable
    public func microseconds(since earlier: MonotonicInstant) -> Int64 {
        nanoseconds(since: earlier) / 1_000
    }

    /// Signed interval `self − earlier`, in milliseconds.
    @inlinable
    public func milliseconds(since earlier: MonotonicInstant) -> Double {
        Double(nanoseconds(since: earlier)) / 1_000_000
    }
}
