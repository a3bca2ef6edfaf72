/// What the built-in simulator, run in the tester's own process, adds to a run's report once
/// its last session has ended.
package struct EmbeddedSimulatorFigures: Sendable {
    /// The faults it performed, by `InjectedFault.countKey`; nil when it had no fault plan.
    package var faultsInjected: [String: Int]?
    /// How late its replies started, from when each was due (the end of the user's speech plus
    /// the drawn latency) to when its timer fired. It shares the process and the cores with the
    /// clients, so this lateness is part of every latency they measure.
    package var replyLateness: LatencyHistogram

    package init(faultsInjected: [String: Int]?, replyLateness: LatencyHistogram) {
        self.faultsInjected = faultsInjected
        self.replyLateness = replyLateness
    }
}
