/// A class of failure, counted per class in the report (DESIGN.md principle 8).
public enum ErrorClass: Sendable, Hashable {
    /// TCP connect failed (refused, unreachable, DNS).
    case connectFailed
    /// The TLS handshake failed.
    case tlsFailed
    /// The server answered the upgrade with this HTTP status.
    case upgradeRejected(status: Int)
    /// The REST pre-step was answered with this HTTP status.
    case restRejected(status: Int)
    /// The upgrade response was not a valid WebSocket handshake.
    case invalidUpgrade
    /// The server closed the WebSocket (with this close code, or none) before the scenario hung up.
    case closedByServer(code: Int?)
    /// An in-band error event from the server.
    case inBandError
    /// An in-band error before the session was ready (OpenAI: before `session.updated`).
    case readyRejected
    /// A step did not finish within its timeout.
    case timeout(step: String)
    /// A frame the dialect could not parse.
    case protocolViolation
    /// The agent called a tool the scenario's `tool_reply` has no output for.
    case toolReplyMissing
    /// vload itself failed (for example, could not write a frame).
    case generatorError

    /// The name used in reports: `upgrade_rejected_401`, `timeout_wait_ready`, ….
    public var name: String {
        switch self {
        case .connectFailed: return "connect_failed"
        case .tlsFailed: return "tls_failed"
        case .upgradeRejected(let status): return "upgrade_rejected_\(status)"
        case .restRejected(let status): return "rest_rejected_\(status)"
        case .invalidUpgrade: return "invalid_upgrade"
        case .closedByServer(let code?): return "closed_by_server_\(code)"
        case .closedByServer(nil): return "closed_by_server_no_code"
        case .inBandError: return "in_band_error"
        case .readyRejected: return "ready_rejected"
        case .timeout(let step): return "timeout_\(step)"
        case .protocolViolation: return "protocol_violation"
        case .toolReplyMissing: return "tool_reply_missing"
        case .generatorError: return "generator_error"
        }
    }
}
