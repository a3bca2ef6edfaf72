/// The metrics of PROTOCOLS.md §2.3, by their report names.
public enum MetricName: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    // (a) connect
    case connectMs = "connect_ms"
    // (b) time-to-ready
    case startedMs = "started_ms"
    case readyMs = "ready_ms"
    case sessionSetupTotalMs = "session_setup_total_ms"
    // greeting, kept apart from (c)
    case greetingMs = "greeting_ms"
    // (c) first-audio latency
    case firstAudioFromEndMs = "first_audio_from_end_ms"
    case firstAudioFromStartMs = "first_audio_from_start_ms"
    case firstVoicedAudioFromEndMs = "first_voiced_audio_from_end_ms"
    case turnDurationMs = "turn_duration_ms"
    // the generator's own health
    case sendLagMs = "send_lag_ms"

    /// Order of appearance in tables: the order of declaration.
    public static func < (lhs: MetricName, rhs: MetricName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Metrics describing the endpoint (everything but the generator's own health).
    public static var endpointMetrics: [MetricName] { allCases.filter { $0 != .sendLagMs } }
}
