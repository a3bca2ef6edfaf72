import Foundation

/// Facts about a run that the recorder does not hold: what was run, when, and at what cost.
package struct RunContext: Sendable {
    package var scenario: Scenario
    package var load: LoadProfile
    package var redactedURL: String
    package var dialect: String
    package var metricsMeasured: Set<MetricName>
    package var frameMs: Int
    package var simulator: [String: String]?
    package var startedAt: Date
    package var endedAt: Date
    package var cpuSeconds: Double
    package var cores: Int
    /// The warm-up left out of the metrics (0: none).
    package var warmupMs = 0
    /// The signal that cut the run short; nil when it ran to its end.
    package var interruptedBy: InterruptSignal?
    /// The lag p99 (send, receive, the built-in simulator's replies) above which the generator
    /// counts as saturated; nil: `RunReport.defaultMaxLagMs`.
    package var maxLagMs: Double?
    /// Why the receive-lag probe could not run; the run's reads are then unchecked.
    package var receiveLagProbeFailure: String?
    /// The server's TLS certificate went unchecked (`--insecure`).
    package var tlsInsecure = false
    /// How late the built-in simulator's replies started, when it ran in this process; its p99
    /// is held to the lag bound.
    package var simulatorReplyLateness: LatencyHistogram?

    package init(
        scenario: Scenario,
        load: LoadProfile,
        redactedURL: String,
        dialect: String,
        metricsMeasured: Set<MetricName> = MetricName.core,
        frameMs: Int,
        simulator: [String: String]?,
        startedAt: Date,
        endedAt: Date,
        cpuSeconds: Double,
        cores: Int
    ) {
        self.scenario = scenario
        self.load = load
        self.redactedURL = redactedURL
        self.dialect = dialect
        self.metricsMeasured = metricsMeasured
        self.frameMs = frameMs
        self.simulator = simulator
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.cpuSeconds = cpuSeconds
        self.cores = cores
    }
}
