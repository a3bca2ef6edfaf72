/// The metrics of docs/metrics.md, by their report names.
package enum MetricName: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    // (a) connect
    case restSetupMs = "rest_setup_ms"
    case connectMs = "connect_ms"
    /// `connect_ms` in its phases (docs/tls.md): name lookup, TCP, TLS (wss only), upgrade.
    case dnsMs = "dns_ms"
    case tcpMs = "tcp_ms"
    case tlsMs = "tls_ms"
    case upgradeMs = "upgrade_ms"
    /// A WebRTC call's connect in its phases (docs/webrtc.md): the offer's POST round trip, ICE,
    /// DTLS and the data channel's open. Not a tiling of `connect_ms`: the phases are each
    /// transport's own intervals.
    case signallingMs = "signalling_ms"
    case iceMs = "ice_ms"
    case dtlsMs = "dtls_ms"
    case dataChannelOpenMs = "data_channel_open_ms"
    // (b) time-to-ready
    case startedMs = "started_ms"
    case readyMs = "ready_ms"
    case sessionSetupTotalMs = "session_setup_total_ms"
    /// The load model's scheduled start → ready (`session_setup_total_ms` plus any start lag).
    case readyFromScheduledMs = "ready_from_scheduled_ms"
    // greeting, kept apart from (c)
    case greetingMs = "greeting_ms"
    // (c) first-audio latency
    case firstAudioFromEndMs = "first_audio_from_end_ms"
    case firstAudioFromStartMs = "first_audio_from_start_ms"
    case firstVoicedAudioFromEndMs = "first_voiced_audio_from_end_ms"
    /// Manual turns (OpenAI `turn_detection: null`): the client's commit → first audio.
    case firstAudioFromCommitMs = "first_audio_from_commit_ms"
    case turnDurationMs = "turn_duration_ms"
    /// Silence the caller hears mid-reply: the playback underruns of a reply, in total
    /// (docs/audio-continuity.md); 0 for a reply that played without a gap.
    case stallMs = "stall_ms"
    // (d) interruption (barge-in)
    case intAckMs = "int_ack_ms"
    case intCutoffMs = "int_cutoff_ms"
    case intCancelMs = "int_cancel_ms"
    case intCommandRttMs = "int_cmd_rtt_ms"
    case audioAfterAckMs = "audio_after_ack_ms"
    // (e) transcripts
    case userTranscriptFirstPartialMs = "user_tr_first_partial_ms"
    case userTranscriptFinalMs = "user_tr_final_ms"
    // speech-to-text without agent audio (docs/dialects.md)
    case sttInterimLatencyMs = "stt_interim_latency_ms"
    case sttFinalLatencyMs = "stt_final_latency_ms"
    case endpointMs = "endpoint_ms"
    /// Speech end → the server's end of the user's turn (Flux `EndOfTurn`).
    case endOfTurnMs = "end_of_turn_ms"
    /// Speech end → the server's eager end of turn that stood (Flux `EagerEndOfTurn`).
    case eagerEndOfTurnMs = "eager_end_of_turn_ms"
    /// The `finalize` step's request (Deepgram `Finalize`) → the result it flushed (`from_finalize`).
    case finalizeMs = "finalize_ms"
    // latencies the server reports about itself, never mixed with client-measured ones
    case serverTotalLatencyMs = "server_total_latency_ms"
    case serverSttLatencyMs = "server_stt_latency_ms"
    case serverTttLatencyMs = "server_ttt_latency_ms"
    case serverTtsLatencyMs = "server_tts_latency_ms"
    // the generator's own health
    case sendLagMs = "send_lag_ms"
    /// Actual − scheduled start of each session.
    case startLagMs = "start_lag_ms"
    /// How late the generator's event loops read what arrived for them (its receive-lag probe).
    case receiveLagMs = "receive_lag_ms"

    /// Order of appearance in tables: the order of declaration.
    package static func < (lhs: MetricName, rhs: MetricName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Metrics describing the endpoint (everything but the generator's own health).
    package static var endpointMetrics: [MetricName] { allCases.filter { !generatorMetrics.contains($0) } }

    /// The generator's own health, reported apart from the endpoint's figures.
    package static let generatorMetrics: Set<MetricName> = [.sendLagMs, .receiveLagMs, .startLagMs]

    /// Metrics every dialect measures: shown in tables even when they have no samples.
    /// (`tls_ms` only over wss: `SessionPlan.metricsMeasured` adds it.)
    package static let core: Set<MetricName> = [.connectMs, .dnsMs, .tcpMs, .upgradeMs, .sessionSetupTotalMs, .readyFromScheduledMs]

    /// Metrics that only exist when the agent answers with audio.
    package static let audioReply: Set<MetricName> = [
        .greetingMs, .firstAudioFromEndMs, .firstAudioFromStartMs, .firstVoicedAudioFromEndMs, .turnDurationMs, .stallMs,
    ]

    /// Metrics of a speech-to-text endpoint that returns transcripts instead of audio.
    package static let speechToText: Set<MetricName> = [
        .sttInterimLatencyMs, .sttFinalLatencyMs, .endpointMs, .userTranscriptFirstPartialMs, .userTranscriptFinalMs,
    ]
}
