import NIOCore
import NIOSSL
import Testing
import WSClient

@testable import VoiceLoad

@Suite("TLS failures: classes and one-line causes from NIOSSL's errors")
struct TLSFailureTests {
    /// What NIOSSL's `handshakeFailed` prints for a chain BoringSSL would not verify.
    private let verifyFailed =
        "handshakeFailed(NIOSSL.BoringSSLError.sslError([Error: 268435581 "
        + "error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at /src/ssl/handshake.cc:298]))"

    @Test("CERTIFICATE_VERIFY_FAILED: an untrusted certificate")
    func untrusted() {
        let failure = TLSFailure(describing: verifyFailed)
        #expect(failure.kind == .untrustedCertificate)
        #expect(failure.reason.contains("CERTIFICATE_VERIFY_FAILED") && !failure.reason.contains("handshake.cc"))
        #expect(failure.connectError == .tlsUntrustedCertificate(failure.reason))
    }

    @Test("NIOSSL's host-name check: a mismatch naming the host")
    func hostnameMismatch() throws {
        let failure = try #require(TLSFailure(NIOSSLExtraError.failedToValidateHostname, host: "127.0.0.1"))
        #expect(failure.kind == .hostnameMismatch)
        #expect(failure.reason.hasPrefix("the server's certificate does not name 127.0.0.1"))
        #expect(
            WebSocketClientHandshakeHandler.classify(NIOSSLExtraError.failedToValidateHostname, host: "a.example")
                == .tlsHostnameMismatch(try #require(TLSFailure(NIOSSLExtraError.failedToValidateHostname, host: "a.example")).reason)
        )
    }

    @Test("any other handshake failure: tls_failed with BoringSSL's reason codes, in order, once each")
    func other() {
        let text =
            "handshakeFailed(sslError([Error: 1 error:10000116:SSL routines:OPENSSL_internal:TLSV1_ALERT_UNKNOWN_CA at a.cc:1, "
            + "Error: 2 error:1000042e:SSL routines:OPENSSL_internal:TLSV1_ALERT_PROTOCOL_VERSION at b.cc:2, "
            + "Error: 3 error:10000116:SSL routines:OPENSSL_internal:TLSV1_ALERT_UNKNOWN_CA at a.cc:1]))"
        let failure = TLSFailure(describing: text)
        #expect(failure.kind == .handshakeFailed)
        #expect(failure.reason == "TLSV1_ALERT_UNKNOWN_CA, TLSV1_ALERT_PROTOCOL_VERSION")
        let bare = TLSFailure(describing: "uncleanShutdown")
        #expect(bare.kind == .handshakeFailed && bare.reason == "uncleanShutdown")
    }

    @Test("NIOSSL's errors are TLS failures; others are not")
    func recognised() {
        #expect(TLSFailure(NIOSSLError.uncleanShutdown)?.kind == .handshakeFailed)
        #expect(TLSFailure(ChannelError.connectTimeout(.seconds(1))) == nil)
        #expect(WebSocketClientHandshakeHandler.classify(NIOSSLError.uncleanShutdown) == .tlsFailed("uncleanShutdown"))
    }
}
