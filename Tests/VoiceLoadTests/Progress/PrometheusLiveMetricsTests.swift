import Testing

@testable import VoiceLoad

@Suite("Prometheus live metrics")
struct PrometheusLiveMetricsTests {
    private func text(_ metrics: PrometheusLiveMetrics) -> String {
        String(decoding: metrics.exposition(), as: UTF8.self)
    }

    @Test("gauges and counters with vload_ names, their types and the figures' values")
    func exposition() {
        let metrics = PrometheusLiveMetrics()
        var figures = LiveFigures(
            elapsedMs: 12_500,
            activeSessions: 10,
            sessionsStarted: 50,
            sessionsCompleted: 39,
            sessionsFailed: 1,
            turnsCompleted: 38,
            errorsByClass: ["connect_failed": 1],
            framesSent: 9_000,
            firstAudioP50Ms: 700.4,
            firstAudioP95Ms: 701.2,
            sendLagP99Ms: 1.8
        )
        figures.droppedStarts = 7
        figures.receiveLagP99Ms = 0.4
        metrics.update(figures)
        let lines = Set(text(metrics).split(separator: "\n").map(String.init))
        for expected in [
            "vload_elapsed_seconds 12.5",
            "vload_active_sessions 10.0",
            "vload_sessions_started_total 50",
            "vload_sessions_completed_total 39",
            "vload_sessions_failed_total 1",
            "vload_turns_completed_total 38",
            "vload_frames_sent_total 9000",
            "vload_dropped_starts_total 7",
            #"vload_errors_total{class="connect_failed"} 1"#,
            #"vload_first_audio_from_end_ms{quantile="0.5"} 700.4"#,
            #"vload_first_audio_from_end_ms{quantile="0.95"} 701.2"#,
            #"vload_send_lag_ms{quantile="0.99"} 1.8"#,
            #"vload_receive_lag_ms{quantile="0.99"} 0.4"#,
            "# TYPE vload_active_sessions gauge",
            "# TYPE vload_turns_completed_total counter",
            "# TYPE vload_errors_total counter",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
    }

    @Test("counters follow the figures up across ticks; a latency with no samples is NaN")
    func ticks() {
        let metrics = PrometheusLiveMetrics()
        metrics.update(LiveFigures(elapsedMs: 1_000, sessionsStarted: 5, errorsByClass: ["timeout_ready": 1]))
        metrics.update(
            LiveFigures(
                elapsedMs: 2_000,
                sessionsStarted: 8,
                errorsByClass: ["timeout_ready": 3, "connect_failed": 2]
            )
        )
        let lines = Set(text(metrics).split(separator: "\n").map(String.init))
        #expect(lines.contains("vload_sessions_started_total 8"))
        #expect(lines.contains(#"vload_errors_total{class="timeout_ready"} 3"#))
        #expect(lines.contains(#"vload_errors_total{class="connect_failed"} 2"#))
        #expect(lines.contains(#"vload_first_audio_from_end_ms{quantile="0.5"} nan"#))
        #expect(lines.contains(#"vload_receive_lag_ms{quantile="0.99"} nan"#))
    }
}
