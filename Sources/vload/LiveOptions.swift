import ArgumentParser
import VoiceLoad

/// `--quiet`, `--metrics-port` and `--metrics-host`: the live view of a run.
struct LiveOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "No live progress. Without it: on a terminal a progress bar redrawn 4 times a second, "
                + "else a 'progress t=… active=… sessions=… turns=… errors=… first_audio_p50=… first_audio_p95=… send_lag_p99=…' "
                + "line every 5 s and one at the end. First-audio percentiles cover the turns that finished in the last "
                + "\(LiveFigures.windowS) s; send lag p99 the run so far."
        )
    )
    var quiet = false

    @Option(
        name: .customLong("metrics-port"),
        help: ArgumentHelp(
            "Serve the live figures for Prometheus at http://HOST:PORT/metrics while the run goes on "
                + "(vload_active_sessions, vload_turns_completed_total, vload_errors_total{class}, "
                + "vload_first_audio_from_end_ms{quantile}, …); 0 picks a free port.",
            valueName: "port"
        )
    )
    var metricsPort: Int?

    @Option(name: .customLong("metrics-host"), help: "The address --metrics-port listens on (0.0.0.0 in a container).")
    var metricsHost = "127.0.0.1"

    func validate() throws {
        if let metricsPort, !(0...65_535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be between 0 and 65535 (got \(metricsPort))")
        }
    }

    /// Starts the metrics endpoint (when asked for) and returns the run's observer, with what
    /// to stop after the run; nil and nil with `--quiet` and no endpoint.
    func start(total: ProgressTotal) async throws(InputError) -> (observer: LiveMonitor?, server: MetricsServer?) {
        var server: MetricsServer?
        var metrics: PrometheusLiveMetrics?
        if let metricsPort {
            let exported = PrometheusLiveMetrics()
            let bound: MetricsServer
            do {
                bound = try await MetricsServer.start(host: metricsHost, port: metricsPort) { exported.exposition() }
            } catch {
                throw InputError("--metrics-port \(metricsPort): cannot listen on \(metricsHost):\(metricsPort): \(error)")
            }
            print("metrics: \(bound.url)")
            (server, metrics) = (bound, exported)
        }
        guard !quiet || metrics != nil else { return (nil, server) }
        let progress = quiet ? nil : ProgressPrinter(mode: ProgressPrinter.standardOutputMode(), total: total)
        return (LiveMonitor(progress: progress, metrics: metrics), server)
    }
}
