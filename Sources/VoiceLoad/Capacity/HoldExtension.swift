/// Whether a capacity step whose hold is up goes on, as a value-type state machine: it goes on
/// (the clients keep running sessions back to back) while an SLO's percentile has fewer samples
/// than it needs and those lie on both sides of its bound (`SampleShortfall`: more samples
/// could change the verdict; samples all on one side already decide it), until the hold has
/// lasted `maxHoldMs` (`--max-hold`). It runs nothing itself: the step asks it once per second.
package struct HoldExtension: Sendable, Hashable {
    /// Why an extended hold ended.
    package enum Outcome: String, Sendable, Hashable, Codable {
        /// Every SLO had the samples it needs, or samples on one side of its bound.
        case samplesSuffice = "samples_suffice"
        /// `--max-hold` came first: an SLO still cannot be judged.
        case maxHoldReached = "max_hold_reached"
    }

    /// What the step does now.
    package enum Decision: Sendable, Hashable {
        /// Go on starting sessions; `first` on the first check that extends the hold.
        case goOn(shortfalls: [SampleShortfall], first: Bool)
        case stop
    }

    package let holdMs: Int
    package let maxHoldMs: Int
    /// How long past the hold the step went on (0 when it did not).
    package private(set) var extendedMs = 0
    /// Set once the hold was extended, or would have been but `maxHoldMs` allowed none.
    package private(set) var outcome: Outcome?
    /// What was short at the last check.
    package private(set) var shortfalls: [SampleShortfall] = []
    private var extending = false
    private var stopped = false

    /// Checks the settings: `maxHoldMs` at least `holdMs`.
    package init(holdMs: Int, maxHoldMs: Int) throws(InputError) {
        guard maxHoldMs >= holdMs else {
            throw InputError("--max-hold (\(Self.seconds(maxHoldMs)) s) must be at least --hold (\(Self.seconds(holdMs)) s)")
        }
        self.holdMs = holdMs
        self.maxHoldMs = maxHoldMs
    }

    /// `--max-hold` by default: four times the hold.
    package static func defaultMaxHoldMs(holdMs: Int) -> Int { holdMs * 4 }

    /// Takes the shortfalls of the step's SLOs `pastHoldMs` after its hold ended.
    package mutating func decide(pastHoldMs: Int, shortfalls: [SampleShortfall]) -> Decision {
        guard !stopped else { return .stop }
        self.shortfalls = shortfalls
        if extending { extendedMs = max(extendedMs, pastHoldMs) }
        if shortfalls.isEmpty {
            if extending { outcome = .samplesSuffice }
            stopped = true
            return .stop
        }
        guard holdMs + pastHoldMs < maxHoldMs else {
            outcome = .maxHoldReached
            stopped = true
            return .stop
        }
        let first = !extending
        extending = true
        return .goOn(shortfalls: shortfalls, first: first)
    }

    /// What the step line and capacity.json say: nil when the hold was not extended.
    package var record: CapacityStep.HoldRecord? {
        guard let outcome else { return nil }
        return CapacityStep.HoldRecord(
            extendedS: Double(extendedMs) / 1_000,
            maxHoldS: Double(maxHoldMs) / 1_000,
            outcome: outcome,
            shortfalls: outcome == .maxHoldReached ? shortfalls.map(\.text) : []
        )
    }

    /// `20`, `7.5`: milliseconds as seconds, as the options are written.
    package static func seconds(_ ms: Int) -> String {
        let value = Double(ms) / 1_000
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
