import Foundation

/// Which calls a run records (`--record`, docs/recordings.md): the `worst` N calls by their
/// slowest first audio, every call that `failed` (or broke a threshold), `all` of them, or none.
package struct RecordPolicy: Sendable, Hashable, CustomStringConvertible {
    /// How many of the slowest first-audio calls to keep (0: none).
    package var worstCount: Int
    /// Every call that failed, had a turn time out, or has a turn beyond a latency threshold.
    package var failed: Bool
    /// Every call.
    package var all: Bool

    package init(worstCount: Int = 0, failed: Bool = false, all: Bool = false) {
        self.worstCount = worstCount
        self.failed = failed
        self.all = all
    }

    /// `worst:5,failed`: the five slowest first-audio calls and every failed one.
    package static let standard = RecordPolicy(worstCount: 5, failed: true)
    package static let none = RecordPolicy()

    /// The most calls `worst:N` may hold in memory until the run ends.
    package static let maxWorstCount = 1_000

    /// Whether any call can be recorded.
    package var recordsAny: Bool { all || failed || worstCount > 0 }

    /// `worst:N`, `failed`, `all` or `none`, or a comma list of `worst:N` and `failed`
    /// (`worst:5,failed`, the default).
    package init(parsing text: String) throws(InputError) {
        let usage = "--record must be worst:N (N 1–\(Self.maxWorstCount)), failed, all or none, or worst:N,failed (got '\(text)')"
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty else { throw InputError(usage) }
        if parts.count == 1, parts[0] == "all" {
            self = RecordPolicy(all: true)
            return
        }
        if parts.count == 1, parts[0] == "none" {
            self = .none
            return
        }
        var policy = RecordPolicy()
        for part in parts {
            if part == "failed", !policy.failed {
                policy.failed = true
            } else if part.hasPrefix("worst:"), policy.worstCount == 0, let count = Int(part.dropFirst("worst:".count)),
                (1...Self.maxWorstCount).contains(count)
            {
                policy.worstCount = count
            } else {
                throw InputError(usage)
            }
        }
        self = policy
    }

    package var description: String {
        if all { return "all" }
        let parts = (worstCount > 0 ? ["worst:\(worstCount)"] : []) + (failed ? ["failed"] : [])
        return parts.isEmpty ? "none" : parts.joined(separator: ",")
    }
}
