import Prometheus
import Synchronization

/// The live figures as Prometheus metrics (text exposition format 0.0.4), updated at every tick
/// and served at `/metrics` by `MetricsServer`.
///
/// Gauges: `vload_elapsed_seconds`, `vload_active_sessions`,
/// `vload_first_audio_from_end_ms{quantile="0.5"|"0.95"}` (turns that finished in the last
/// `LiveFigures.windowS` seconds; NaN when none did), `vload_send_lag_ms{quantile="0.99"}` and
/// `vload_receive_lag_ms{quantile="0.99"}` (the run so far). Counters: `vload_sessions_started_total`, `vload_sessions_completed_total`,
/// `vload_sessions_failed_total`, `vload_turns_completed_total`, `vload_frames_sent_total`,
/// `vload_errors_total{class="…"}`.
package final class PrometheusLiveMetrics: Sendable {
    /// The content type of `exposition()`.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let registry = PrometheusCollectorRegistry()
    private let elapsed: Gauge
    private let active: Gauge
    private let firstAudioP50: Gauge
    private let firstAudioP95: Gauge
    private let sendLagP99: Gauge
    private let receiveLagP99: Gauge
    private let sessionsStarted: Counter
    private let sessionsCompleted: Counter
    private let sessionsFailed: Counter
    private let turnsCompleted: Counter
    private let framesSent: Counter
    private let droppedStarts: Counter
    /// The figures last exported: counters only go up, by the difference.
    private let exported = Mutex(LiveFigures(elapsedMs: 0))

    package init() {
        let firstAudio = Self.named(
            "first_audio_from_end",
            "ms",
            "first_audio_from_end_ms of the turns that finished in the last \(LiveFigures.windowS) s."
        )
        let sendLag = Self.named(
            "send_lag",
            "ms",
            "The generator's send lag (actual - scheduled send time of each audio frame) over the run so far, after the warm-up."
        )
        let receiveLag = Self.named(
            "receive_lag",
            "ms",
            "How late the generator's event loops read what arrived for them (its probe) over the run so far, after the warm-up."
        )
        elapsed = registry.makeGauge(descriptor: Self.named("elapsed", "seconds", "Time since the run started."))
        active = registry.makeGauge(descriptor: Self.named("active", "sessions", "Sessions open now."))
        firstAudioP50 = registry.makeGauge(descriptor: firstAudio, labels: [("quantile", "0.5")])
        firstAudioP95 = registry.makeGauge(descriptor: firstAudio, labels: [("quantile", "0.95")])
        sendLagP99 = registry.makeGauge(descriptor: sendLag, labels: [("quantile", "0.99")])
        receiveLagP99 = registry.makeGauge(descriptor: receiveLag, labels: [("quantile", "0.99")])
        sessionsStarted = registry.makeCounter(descriptor: Self.named("sessions_started", "total", "Sessions started."))
        sessionsCompleted = registry.makeCounter(descriptor: Self.named("sessions_completed", "total", "Sessions that ran to their end."))
        sessionsFailed = registry.makeCounter(descriptor: Self.named("sessions_failed", "total", "Sessions that ended in an error."))
        turnsCompleted = registry.makeCounter(descriptor: Self.named("turns_completed", "total", "User turns the agent answered."))
        framesSent = registry.makeCounter(descriptor: Self.named("frames_sent", "total", "Audio frames sent."))
        droppedStarts = registry.makeCounter(
            descriptor: Self.named("dropped_starts", "total", "Scheduled session starts an open model could not make.")
        )
        for gauge in [firstAudioP50, firstAudioP95, sendLagP99, receiveLagP99] { gauge.set(to: .nan) }
    }

    /// Sets the gauges to `figures` and moves the counters up to them.
    package func update(_ figures: LiveFigures) {
        exported.withLock { previous in
            elapsed.set(to: figures.elapsedMs.rounded() / 1_000)
            active.set(to: Double(figures.activeSessions))
            firstAudioP50.set(to: figures.firstAudioP50Ms ?? .nan)
            firstAudioP95.set(to: figures.firstAudioP95Ms ?? .nan)
            sendLagP99.set(to: figures.sendLagP99Ms ?? .nan)
            receiveLagP99.set(to: figures.receiveLagP99Ms ?? .nan)
            Self.raise(sessionsStarted, from: previous.sessionsStarted, to: figures.sessionsStarted)
            Self.raise(sessionsCompleted, from: previous.sessionsCompleted, to: figures.sessionsCompleted)
            Self.raise(sessionsFailed, from: previous.sessionsFailed, to: figures.sessionsFailed)
            Self.raise(turnsCompleted, from: previous.turnsCompleted, to: figures.turnsCompleted)
            Self.raise(framesSent, from: previous.framesSent, to: figures.framesSent)
            Self.raise(droppedStarts, from: previous.droppedStarts, to: figures.droppedStarts)
            for (errorClass, count) in figures.errorsByClass.sorted(by: { $0.key < $1.key }) {
                let counter = registry.makeCounter(
                    descriptor: Self.named("errors", "total", "Errors, by class."),
                    labels: [("class", errorClass)]
                )
                Self.raise(counter, from: previous.errorsByClass[errorClass] ?? 0, to: count)
            }
            previous = figures
        }
    }

    /// Every metric in the Prometheus text format.
    package func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// `vload_<base>_<unit>`, with its help text.
    private static func named(_ base: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "vload", metricName: base, unitName: unit, helpText: help)
    }

    private static func raise(_ counter: Counter, from old: Int, to new: Int) {
        if new > old { counter.increment(by: Int64(new - old)) }
    }
}
