/// Watches a run while it goes on (live progress, the metrics endpoint): told when the run's
/// recorder exists and the clients are about to start, and when the last session has ended,
/// before the report is built.
package protocol RunObserver: Sendable {
    /// The run starts now; `recorder` collects its measurements.
    func runStarted(recorder: Recorder)
    /// Every session has ended; returns once the observer has stopped and written its last word.
    func runEnded() async
}
