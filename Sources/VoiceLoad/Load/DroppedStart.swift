/// Why an open model's scheduled start was not made.
package enum DroppedStart: String, Sendable, CaseIterable {
    /// `--max-in-flight` sessions were already open.
    case maxInFlight = "max_in_flight"
    /// The generator was more than `Swarm.lateStartLimitMs` behind the schedule.
    case late
}
