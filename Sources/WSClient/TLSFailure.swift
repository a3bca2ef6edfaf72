import NIOSSL

/// What went wrong in a client's TLS handshake, read from NIOSSL's error, with one line
/// naming the cause (docs/tls.md).
///
/// BoringSSL reports every failed check of the server's certificate chain (unknown issuer,
/// self-signed, expired, not yet valid) as `CERTIFICATE_VERIFY_FAILED` in the error stack of
/// `NIOSSLError.handshakeFailed`; NIOSSL checks the host name itself once the handshake is
/// done and throws `NIOSSLExtraError.failedToValidateHostname`.
package struct TLSFailure: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// The server's certificate chain did not verify against the trust roots.
        case untrustedCertificate
        /// The certificate verified but does not name the host (or IP address) connected to.
        case hostnameMismatch
        /// Any other failure: protocol version, cipher, an alert from the server (it refused
        /// the client certificate, or has none it wanted), a plain-TCP server, EOF.
        case handshakeFailed
    }

    package var kind: Kind
    /// One line: the cause, with BoringSSL's reason codes where it gave some.
    package var reason: String

    /// The failure a TLS error stands for; nil when `error` is not one of NIOSSL's. `host` is
    /// the host connected to, named in a mismatch.
    package init?(_ error: any Error, host: String? = nil) {
        switch error {
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            let named = host.map { "the server's certificate does not name \($0)" } ?? "the server's certificate does not name the host"
            self.init(kind: .hostnameMismatch, reason: named + " (no matching DNS or IP subject alternative name)")
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            self.init(describing: "\(error)")
        default:
            return nil
        }
    }

    package init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// Classifies the text of a NIOSSL error by the BoringSSL reason codes in it
    /// (`…:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at …`).
    package init(describing text: String) {
        let codes = Self.reasonCodes(in: text)
        if codes.contains("CERTIFICATE_VERIFY_FAILED") {
            self.init(
                kind: .untrustedCertificate,
                reason: "the server's certificate did not verify against the trust roots (CERTIFICATE_VERIFY_FAILED: "
                    + "unknown or private CA, self-signed, expired or not yet valid)"
            )
        } else if text.contains("failedToValidateHostname") {
            self.init(kind: .hostnameMismatch, reason: "the server's certificate does not name the host (\(text))")
        } else if !codes.isEmpty {
            self.init(kind: .handshakeFailed, reason: codes.joined(separator: ", "))
        } else {
            self.init(kind: .handshakeFailed, reason: text)
        }
    }

    /// The connect error this failure fails a connection with.
    package var connectError: WebSocketConnectError {
        switch kind {
        case .untrustedCertificate: return .tlsUntrustedCertificate(reason)
        case .hostnameMismatch: return .tlsHostnameMismatch(reason)
        case .handshakeFailed: return .tlsFailed(reason)
        }
    }

    /// The reason codes of BoringSSL's error strings (`error:1000007d:SSL routines:OPENSSL_internal:REASON`),
    /// in order, without repeats.
    package static func reasonCodes(in text: String) -> [String] {
        var codes: [String] = []
        var rest = Substring(text)
        while let marker = rest.range(of: "OPENSSL_internal:") {
            let tail = rest[marker.upperBound...]
            let code = tail.prefix { $0.isUppercase || $0.isNumber || $0 == "_" }
            if !code.isEmpty, !codes.contains(String(code)) { codes.append(String(code)) }
            rest = tail.dropFirst(code.count)
        }
        return codes
    }
}
