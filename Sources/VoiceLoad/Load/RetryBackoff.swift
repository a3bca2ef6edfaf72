import Foundation
import WSCore

/// How long a client of a closed or staged load waits before its next session when its last
/// ones failed before they were ready (`--retry-backoff 100ms..5s`): exponential with full
/// jitter. After the n-th such failure in a row the wait is drawn uniformly from
/// `[0, min(maxMs, minMs · 2^(n−1))]`; a session that gets ready resets n. Without it, a client
/// whose endpoint refuses connections starts its next session the instant the last one failed:
/// thousands of attempts a second against a service trying to come back.
///
/// The open model never waits: its sessions start on their arrival schedule whatever happened.
package struct RetryBackoff: Sendable, Hashable, CustomStringConvertible {
    /// The ceiling of the first wait (ms); 0 with `maxMs` 0 is no backoff.
    package var minMs: Int
    /// The largest ceiling (ms).
    package var maxMs: Int

    /// 100 ms doubling to 5 s.
    package static let standard = RetryBackoff(minMs: 100, maxMs: 5_000)
    /// Sessions back to back whatever happened (`--retry-backoff 0`).
    package static let none = RetryBackoff(minMs: 0, maxMs: 0)
    /// The longest wait allowed.
    package static let limitMs = 600_000

    package init(minMs: Int, maxMs: Int) {
        self.minMs = minMs
        self.maxMs = maxMs
    }

    /// `100ms..5s`, or `0` for none; a one-line error naming `option` otherwise.
    package init(parsing text: String, option: String = "--retry-backoff") throws(InputError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "0" || trimmed == "none" {
            self = .none
            return
        }
        guard trimmed.contains("..") else {
            throw InputError("invalid \(option) '\(text)': use MIN..MAX like 100ms..5s, or 0 for none")
        }
        let (minMs, maxMs) = try DurationText.millisecondRange(trimmed, option: option, example: "100ms..5s")
        guard minMs >= 1, maxMs >= minMs, maxMs <= Self.limitMs else {
            throw InputError("invalid \(option) '\(text)': MIN must be at least 1 ms and at most MAX, MAX at most 10m")
        }
        self.init(minMs: minMs, maxMs: maxMs)
    }

    package var isNone: Bool { maxMs == 0 }

    /// The ceiling of the wait after `failures` failures in a row (1-based): `minMs · 2^(failures−1)`,
    /// at most `maxMs`; 0 for no failure.
    package func ceilingMs(afterFailures failures: Int) -> Int {
        guard failures > 0, !isNone else { return 0 }
        let doublings = failures - 1
        guard doublings < 32 else { return maxMs }
        return min(maxMs, minMs << doublings)
    }

    /// The wait after `failures` failures in a row, for a draw `unit` in [0, 1).
    package func delayMs(afterFailures failures: Int, unit: Double) -> Int {
        Int((Double(ceilingMs(afterFailures: failures)) * min(max(unit, 0), 1)).rounded(.down))
    }

    /// The wait after `failures` failures in a row, drawn from `random`.
    package func delayMs(afterFailures failures: Int, using random: inout some RandomNumberGenerator) -> Int {
        delayMs(afterFailures: failures, unit: Double.random(in: 0..<1, using: &random))
    }

    /// `100ms..5s`, or `0`.
    package var description: String {
        isNone ? "0" : "\(Self.text(minMs))..\(Self.text(maxMs))"
    }

    private static func text(_ ms: Int) -> String {
        ms % 1_000 == 0 ? "\(ms / 1_000)s" : "\(ms)ms"
    }
}

/// One client's backoff: its failures in a row and its own seeded draws, so a run with a
/// scenario seed waits the same every time.
package struct ClientBackoff: Sendable {
    package let policy: RetryBackoff
    /// Sessions in a row that failed before they were ready.
    package private(set) var failuresInRow = 0
    private var random: SeededGenerator

    package init(_ policy: RetryBackoff, seed: UInt64, client: Int) {
        self.policy = policy
        random = SeededGenerator(seed: seed ^ 0xB4C0_FF5E_ED5E_ED00 &+ UInt64(client) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The wait before the next session, after one that got ready (none) or did not.
    package mutating func waitMs(afterSessionGotReady gotReady: Bool) -> Int {
        if gotReady || policy.isNone {
            failuresInRow = 0
            return 0
        }
        failuresInRow += 1
        return policy.delayMs(afterFailures: failuresInRow, using: &random)
    }
}
