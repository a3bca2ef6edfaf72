/// Why a WebSocket client connection could not be opened.
package enum WebSocketConnectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The TCP connect was refused: nothing listens on the port.
    case connectionRefused(String)
    /// The host name did not resolve.
    case dnsFailed(String)
    /// Any other TCP failure: unreachable, reset, or closed during the upgrade.
    case connectFailed(String)
    /// The server's certificate chain did not verify against the trust roots (unknown or
    /// private CA, self-signed, expired).
    case tlsUntrustedCertificate(String)
    /// The server's certificate verified but does not name the host connected to.
    case tlsHostnameMismatch(String)
    /// Any other TLS handshake failure (protocol, cipher, an alert from the server).
    case tlsFailed(String)
    /// The server answered the upgrade request with a status other than 101. `body` holds at
    /// most the first 2 KiB of the response body, decoded as UTF-8.
    case upgradeRejected(status: Int, body: String)
    /// Connecting, TLS and the upgrade together took longer than the connect timeout.
    case timedOut
    /// The server answered 101 but the response is not a valid WebSocket upgrade
    /// (missing `Upgrade: websocket`, wrong `Sec-WebSocket-Accept`, unknown subprotocol, bad HTTP).
    case invalidUpgradeResponse(String)

    package var description: String {
        switch self {
        case .connectionRefused(let reason): return "connection refused: \(reason)"
        case .dnsFailed(let reason): return "DNS lookup failed: \(reason)"
        case .connectFailed(let reason): return "connect failed: \(reason)"
        case .tlsUntrustedCertificate(let reason): return "TLS: untrusted certificate: \(reason)"
        case .tlsHostnameMismatch(let reason): return "TLS: host name mismatch: \(reason)"
        case .tlsFailed(let reason): return "TLS handshake failed: \(reason)"
        case .upgradeRejected(let status, let body):
            return body.isEmpty ? "upgrade rejected with HTTP \(status)" : "upgrade rejected with HTTP \(status): \(body)"
        case .timedOut: return "connect timed out"
        case .invalidUpgradeResponse(let reason): return "invalid upgrade response: \(reason)"
        }
    }
}
