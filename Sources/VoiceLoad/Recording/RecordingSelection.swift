/// Which ended calls are recorded (`RecordPolicy`), decided as each ends (docs/recordings.md):
/// a failed call (or one past a threshold) and, with `all`, every call is written at once; the
/// slowest first-audio calls are held, at most N at a time, until the run ends, when the N
/// slowest of all are written. A call slower than none of the N held is let go at its end, so
/// no more than N calls' audio waits in memory.
package struct RecordingSelection: Sendable {
    package let policy: RecordPolicy
    let thresholds: [ThresholdExpression]
    /// The slowest calls so far, slowest first; `call` is nil for one already written (it
    /// still holds its place among the N).
    private(set) var held: [Held] = []

    struct Held: Sendable {
        var slowestFirstAudioUs: Int64
        var call: FinishedCall?
    }

    /// What to do with an ended call.
    package enum Decision: Sendable {
        /// Write it now, for these reasons (`failed`, `threshold`, `all`).
        case writeNow(reasons: [String])
        /// Keep it until the run ends: it is among the slowest so far.
        case held
        case dropped
    }

    package init(policy: RecordPolicy, thresholds: [ThresholdExpression] = []) {
        self.policy = policy
        self.thresholds = thresholds
    }

    package mutating func offer(_ call: FinishedCall) -> Decision {
        var reasons: [String] = []
        if policy.failed, call.failed { reasons.append("failed") }
        if policy.failed, call.brokeThreshold(thresholds) { reasons.append("threshold") }
        if policy.all { reasons.append("all") }
        let holds = hold(call, written: !reasons.isEmpty)
        if !reasons.isEmpty { return .writeNow(reasons: reasons) }
        return holds ? .held : .dropped
    }

    /// Places `call` among the slowest when it is slower than the fastest held (a written call
    /// keeps its place without its audio). Returns whether it was placed.
    private mutating func hold(_ call: FinishedCall, written: Bool) -> Bool {
        guard policy.worstCount > 0, let slowestUs = call.slowestFirstAudioUs else { return false }
        if held.count == policy.worstCount {
            guard let fastest = held.last, slowestUs > fastest.slowestFirstAudioUs else { return false }
            held.removeLast()
        }
        let index = held.firstIndex { $0.slowestFirstAudioUs < slowestUs } ?? held.count
        held.insert(Held(slowestFirstAudioUs: slowestUs, call: written ? nil : call), at: index)
        return true
    }

    /// The N slowest calls not yet written, slowest first; the selection lets them go.
    package mutating func takeWorst() -> [FinishedCall] {
        defer { held = held.map { Held(slowestFirstAudioUs: $0.slowestFirstAudioUs, call: nil) } }
        return held.compactMap(\.call)
    }

    /// How many calls' audio is held.
    package var heldCount: Int { held.filter { $0.call != nil }.count }
}
