import COpenSSL

/// vload's DTLS identity for a run (RFC 8827 §6.5 lets an endpoint make its own): a P-256 key, a
/// self-signed certificate made at start, and the DTLS 1.2 context that offers the SRTP profiles
/// (`SRTPProfile.offered`: AEAD_AES_128_GCM, then AES_CM_128_HMAC_SHA1_80). Its sha-256
/// fingerprint goes into every offer.
///
/// Immutable after init; OpenSSL allows SSL_new on one SSL_CTX from many threads, so sessions on
/// every event loop share it.
package final class DTLSIdentity: @unchecked Sendable {
    let context: OpaquePointer
    private let key: OpaquePointer
    private let certificate: OpaquePointer
    package let fingerprint: DTLSFingerprint
    /// The SRTP profiles its handshakes offer or accept, most preferred first.
    package let srtpProfiles: [SRTPProfile]

    /// An identity whose handshakes offer `srtpProfiles` (tests narrow them to play a peer
    /// without GCM).
    package init(srtpProfiles: [SRTPProfile] = SRTPProfile.offered) throws(DTLSFailure) {
        precondition(!srtpProfiles.isEmpty, "a DTLS-SRTP identity offers at least one SRTP profile")
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        guard vload_dtls_make_identity(&key, &certificate, Int.random(in: 1...Int(Int32.max))) == 1, let key, let certificate else {
            throw .library(DTLSFailure.openSSLErrors(during: "making the certificate"))
        }
        var digest = [UInt8](repeating: 0, count: 32)
        let profileNames = srtpProfiles.map(\.description).joined(separator: ":")
        guard vload_x509_sha256(certificate, &digest) == 1, let context = vload_dtls_context(key, certificate, profileNames) else {
            EVP_PKEY_free(key)
            X509_free(certificate)
            throw .library(DTLSFailure.openSSLErrors(during: "setting up DTLS"))
        }
        self.key = key
        self.certificate = certificate
        self.context = context
        self.fingerprint = DTLSFingerprint(hashFunction: "sha-256", digest: digest)
        self.srtpProfiles = srtpProfiles
    }

    deinit {
        SSL_CTX_free(context)
        X509_free(certificate)
        EVP_PKEY_free(key)
    }
}

/// Why the DTLS handshake failed; each is one line in the session's error.
package enum DTLSFailure: Error, Sendable, Hashable, CustomStringConvertible {
    case library(String)
    case handshake(String)
    case fingerprintMismatch(expected: DTLSFingerprint, actual: DTLSFingerprint)
    /// The peer agreed none of `offered`, this end's profiles.
    case noSRTPProfile(offered: [SRTPProfile])
    case timedOut(afterMs: Double)

    package var description: String {
        switch self {
        case .library(let detail): return "DTLS failed: \(detail)"
        case .handshake(let detail): return "DTLS handshake failed: \(detail)"
        case .fingerprintMismatch(let expected, let actual):
            return "DTLS failed: the peer's certificate is \(actual), not the answer's \(expected)"
        case .noSRTPProfile(let offered):
            let names = offered.map(\.description).joined(separator: ", ")
            return "DTLS failed: the peer agreed none of the SRTP profiles vload offers (\(names); use_srtp, RFC 5764)"
        case .timedOut(let afterMs): return "DTLS failed: no handshake within \(Int(afterMs)) ms"
        }
    }

    /// OpenSSL's queued errors as one line, emptying the queue.
    static func openSSLErrors(during step: String) -> String {
        var reasons: [String] = []
        for _ in 0..<16 {
            let code = ERR_get_error()
            if code == 0 { break }
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            reasons.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons.isEmpty ? step : "\(step): \(reasons.joined(separator: "; "))"
    }
}
