/// A class of failure, counted per class in the report (docs/reports.md, "Absent figures,
/// labels and errors"): a failure of the endpoint is data, never a crash. Its `name` is the
/// report's key; its `category` groups classes in the report's `by_category`.
package enum ErrorClass: Sendable, Hashable {
    /// The TCP connect was refused (nothing listens on the port).
    case connectRefused
    /// The host name did not resolve.
    case dnsFailed
    /// Any other TCP failure: unreachable, reset or closed before the upgrade finished.
    case connectFailed
    /// The server's certificate did not verify against the trust roots (docs/tls.md).
    case tlsUntrustedCertificate
    /// The server's certificate does not name the host connected to.
    case tlsHostnameMismatch
    /// Any other TLS handshake failure.
    case tlsFailed
    /// The server answered the upgrade with this HTTP status.
    case upgradeRejected(status: Int)
    /// The REST pre-step was answered with this HTTP status.
    case restRejected(status: Int)
    /// The upgrade response was not a valid WebSocket handshake.
    case invalidUpgrade
    /// WebRTC: the signalling POST (the SDP offer) was answered with this HTTP status.
    case signallingRejected(status: Int)
    /// WebRTC: the signalling POST was answered with no usable SDP answer (docs/webrtc.md).
    case signallingFailed
    /// WebRTC: no ICE candidate pair answered its checks.
    case iceFailed
    /// WebRTC: the DTLS handshake failed, the peer's certificate did not match the answer's
    /// fingerprint, or SRTP could not be keyed from it.
    case dtlsFailed
    /// WebRTC: the data channel's SCTP association failed, or the answer offered no channel.
    case dataChannelFailed
    /// The server closed the WebSocket (with this close code, or none) before the scenario hung up.
    case closedByServer(code: Int?)
    /// OpenAI closed a session that asked for the Realtime beta interface, removed in 2026
    /// (close 4000 `beta_api_shape_disabled`, docs/dialects.md): a change to make, not an outage.
    case betaAPIRemoved
    /// The socket failed with an I/O error, without a close frame.
    case connectionLost
    /// An inbound frame or message above vload's limit (16 MiB).
    case frameTooLarge
    /// An in-band error event from the server, with its code when it has one (as the server
    /// wrote it: `name` makes it a report key).
    case inBandError(code: String?)
    /// An in-band error before the session was ready (OpenAI: before `session.updated`).
    case readyRejected
    /// A step did not finish within its timeout.
    case timeout(step: String)
    /// A frame the dialect (or the WebSocket layer) could not parse.
    case malformedFrame
    /// The REST pre-step's answer was unusable (no WebSocket URL, not the dialect's format).
    case invalidRESTSetup
    /// A speech-to-text result placed beyond the audio sent so far.
    case resultBeforeAudio
    /// On a dialect whose turns end by event: the agent's audio stopped and no end-of-turn
    /// event followed before the wait for it timed out.
    case missingTurnEnd
    /// An agent turn (reply or greeting) whose audio held no voiced chunk at all.
    case silentReply
    /// The agent called a tool the scenario's `tool_reply` has no output for.
    case toolReplyMissing
    /// vload itself failed (for example, could not write a frame).
    case generatorError

    /// An in-band error code as part of a report key: lowercased, every character other than
    /// `[a-z0-9_]` replaced by `_`, at most `maxCodeLength` characters; nil when nothing is left.
    package static func reportCode(_ code: String?) -> String? {
        guard let code else { return nil }
        let scalars = code.lowercased().unicodeScalars.prefix(maxCodeLength).map { scalar -> Character in
            switch scalar {
            case "a"..."z", "0"..."9", "_": return Character(scalar)
            default: return "_"
            }
        }
        return scalars.isEmpty ? nil : String(scalars)
    }

    /// The longest in-band error code kept in a class name.
    package static let maxCodeLength = 40

    /// The name used in reports: `upgrade_rejected_401`, `timeout_wait_ready`, `in_band_error_rate_limited`, ….
    package var name: String {
        switch self {
        case .connectRefused: return "connect_refused"
        case .dnsFailed: return "dns_failed"
        case .connectFailed: return "connect_failed"
        case .tlsUntrustedCertificate: return "tls_untrusted_certificate"
        case .tlsHostnameMismatch: return "tls_hostname_mismatch"
        case .tlsFailed: return "tls_failed"
        case .upgradeRejected(let status): return "upgrade_rejected_\(status)"
        case .restRejected(let status): return "rest_rejected_\(status)"
        case .invalidUpgrade: return "invalid_upgrade"
        case .signallingRejected(let status): return "signalling_rejected_\(status)"
        case .signallingFailed: return "signalling_failed"
        case .iceFailed: return "ice_failed"
        case .dtlsFailed: return "dtls_failed"
        case .dataChannelFailed: return "data_channel_failed"
        case .closedByServer(let code?): return "closed_by_server_\(code)"
        case .closedByServer(nil): return "closed_by_server_no_code"
        case .betaAPIRemoved: return "beta_api_removed"
        case .connectionLost: return "connection_lost"
        case .frameTooLarge: return "frame_too_large"
        case .inBandError(let code): return Self.reportCode(code).map { "in_band_error_\($0)" } ?? "in_band_error"
        case .readyRejected: return "ready_rejected"
        case .timeout(let step): return "timeout_\(step)"
        case .malformedFrame: return "malformed_frame"
        case .invalidRESTSetup: return "invalid_rest_setup"
        case .resultBeforeAudio: return "result_before_audio"
        case .missingTurnEnd: return "missing_turn_end"
        case .silentReply: return "silent_reply"
        case .toolReplyMissing: return "tool_reply_missing"
        case .generatorError: return "generator_error"
        }
    }

    package var category: ErrorCategory {
        switch self {
        case .connectRefused, .connectFailed, .iceFailed, .dataChannelFailed: return .connect
        case .dnsFailed: return .dns
        case .tlsUntrustedCertificate, .tlsHostnameMismatch, .tlsFailed, .dtlsFailed: return .tls
        case .upgradeRejected, .restRejected, .invalidUpgrade, .signallingRejected, .signallingFailed: return .upgrade
        case .closedByServer, .connectionLost, .betaAPIRemoved: return .close
        case .inBandError, .readyRejected: return .inBandError
        case .timeout: return .timeout
        case .frameTooLarge, .malformedFrame, .invalidRESTSetup, .resultBeforeAudio, .missingTurnEnd: return .protocolViolation
        case .silentReply: return .reply
        case .toolReplyMissing, .generatorError: return .generator
        }
    }

    private static let fixedNames: [String: ErrorClass] = Dictionary(
        uniqueKeysWithValues: [
            ErrorClass.connectRefused, .dnsFailed, .connectFailed, .tlsUntrustedCertificate, .tlsHostnameMismatch, .tlsFailed,
            .invalidUpgrade, .signallingFailed, .iceFailed, .dtlsFailed, .dataChannelFailed, .closedByServer(code: nil), .betaAPIRemoved,
            .connectionLost, .frameTooLarge, .inBandError(code: nil), .readyRejected, .malformedFrame, .invalidRESTSetup,
            .resultBeforeAudio, .missingTurnEnd, .silentReply, .toolReplyMissing, .generatorError,
        ].map { ($0.name, $0) }
    )

    /// The class a report key names; nil for a name this version does not know.
    package init?(name: String) {
        if let fixed = Self.fixedNames[name] {
            self = fixed
        } else if let status = Self.number(after: "upgrade_rejected_", in: name) {
            self = .upgradeRejected(status: status)
        } else if let status = Self.number(after: "rest_rejected_", in: name) {
            self = .restRejected(status: status)
        } else if let status = Self.number(after: "signalling_rejected_", in: name) {
            self = .signallingRejected(status: status)
        } else if let code = Self.number(after: "closed_by_server_", in: name) {
            self = .closedByServer(code: code)
        } else if name.hasPrefix("in_band_error_"), name.count > "in_band_error_".count {
            self = .inBandError(code: String(name.dropFirst("in_band_error_".count)))
        } else if name.hasPrefix("timeout_"), name.count > "timeout_".count {
            self = .timeout(step: String(name.dropFirst("timeout_".count)))
        } else {
            return nil
        }
    }

    private static func number(after prefix: String, in name: String) -> Int? {
        guard name.hasPrefix(prefix) else { return nil }
        return Int(name.dropFirst(prefix.count))
    }
}

/// What kind of failure an error class is: the report's `by_category` keys, in display order.
package enum ErrorCategory: String, Sendable, Hashable, CaseIterable, Codable {
    case connect
    case dns
    case tls
    case upgrade
    case close
    case inBandError = "in_band_error"
    case timeout
    case protocolViolation = "protocol_violation"
    case reply
    case generator

    /// The category of a report key; `protocol_violation`, the name older versions gave
    /// malformed frames and misplaced results, is one too. nil for a name this version does not know.
    package init?(className: String) {
        if className == "protocol_violation" {
            self = .protocolViolation
        } else if let errorClass = ErrorClass(name: className) {
            self = errorClass.category
        } else {
            return nil
        }
    }
}
