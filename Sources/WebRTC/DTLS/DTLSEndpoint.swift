import COpenSSL

/// One session's DTLS 1.2 handshake (RFC 6347) with the use_srtp extension (RFC 5764), through
/// OpenSSL with memory BIOs: datagrams in, datagrams out, no socket. When the handshake is done
/// it checks the peer's certificate against the answer's fingerprint and exports the SRTP keys.
/// A reference to OpenSSL's connection state, used on one event loop.
package final class DTLSEndpoint {
    package enum Role: Sendable { case client, server }

    /// What a step produced: datagrams to send, application data the peer sent (the data
    /// channel's SCTP packets, RFC 8261), then at most one outcome; `peerClosed` once the peer's
    /// close_notify alert has been read (RFC 5246 §7.2.1: it sends nothing more).
    package struct Output: Sendable, Hashable {
        package var datagrams: [[UInt8]] = []
        package var applicationData: [[UInt8]] = []
        package var connected: SRTPKeyingMaterial?
        package var failure: DTLSFailure?
        package var peerClosed = false
    }

    /// Records are packed into datagrams of at most this size, as OpenSSL fragments the handshake
    /// to it: 1,200 bytes fits every path a WebRTC stack expects (RFC 8261 §5 uses the same bound).
    package static let mtuBytes = 1_200
    /// A record's plaintext is at most 2^14 bytes (RFC 6347 §4.1, RFC 5246 §6.2.1).
    private static let maxPlaintextBytes = 16_384
    private let ssl: OpaquePointer
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    package let role: Role
    private let expectedFingerprint: DTLSFingerprint
    /// The identity's SRTP profiles, named when the peer agrees none of them.
    private let srtpProfiles: [SRTPProfile]
    package private(set) var isConnected = false
    package private(set) var hasFailed = false
    /// Set once `shutdown` sent this end's close_notify: nothing is written after it.
    package private(set) var isShutDown = false
    /// Application writes refused for being larger than a record may carry (`write`).
    package private(set) var oversizeWritesDropped = 0

    package init(identity: DTLSIdentity, role: Role, expectedFingerprint: DTLSFingerprint) throws(DTLSFailure) {
        var readBIO: OpaquePointer?
        var writeBIO: OpaquePointer?
        guard let ssl = vload_dtls_connection(identity.context, role == .client ? 1 : 0, Self.mtuBytes, &readBIO, &writeBIO),
            let readBIO, let writeBIO
        else { throw .library(DTLSFailure.openSSLErrors(during: "creating the connection")) }
        self.ssl = ssl
        self.readBIO = readBIO
        self.writeBIO = writeBIO
        self.role = role
        self.expectedFingerprint = expectedFingerprint
        self.srtpProfiles = identity.srtpProfiles
    }

    deinit { SSL_free(ssl) }  // frees both BIOs too

    /// Starts the handshake: a client sends its ClientHello, a server waits for one.
    package func start() -> Output { step() }

    /// A DTLS datagram from the peer (RFC 7983: first byte 20…63).
    package func receive(_ datagram: [UInt8]) -> Output {
        guard !hasFailed else { return Output() }
        _ = datagram.withUnsafeBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        if isConnected {
            // After the handshake: application data, alerts and retransmitted handshake records;
            // reading handles the last two (a repeated Finished makes OpenSSL resend its own).
            let applicationData = readApplicationData()
            return Output(datagrams: drainDatagrams(), applicationData: applicationData, peerClosed: peerClosed)
        }
        return step()
    }

    /// Sends `bytes` as one application-data record (the data channel's SCTP packets, each
    /// smaller than a datagram: `SCTPAssociation.mtuBytes`). Nothing before the handshake ends.
    ///
    /// A write of more than `mtuBytes` is dropped and counted (`oversizeWritesDropped`), before
    /// OpenSSL sees it: the connection sets `SSL_set_max_send_fragment` to `mtuBytes`, and OpenSSL
    /// 3.0's `do_dtls1_write` (ssl/record/rec_layer_d1.c) answers a longer `SSL_write` with
    /// `SSLfatal(SSL_AD_INTERNAL_ERROR, SSL_R_EXCEEDS_MAX_FRAGMENT_SIZE)`: it does not split the
    /// write as TLS would, it sends the peer a fatal internal_error alert and the connection is
    /// dead. A drop, not a `failure` (which ends the call): DTLS is a datagram transport that may
    /// lose any record, its one writer (SCTP, RFC 8261) already recovers from lost packets, and one
    /// packet too large is the writer's fault, not the connection's.
    package func write(applicationData bytes: [UInt8]) -> Output {
        guard isConnected, !hasFailed, !isShutDown, !bytes.isEmpty else { return Output() }
        guard bytes.count <= Self.mtuBytes else {
            oversizeWritesDropped += 1
            return Output()
        }
        let written = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.count else {
            hasFailed = true
            return Output(datagrams: drainDatagrams(), failure: .library(DTLSFailure.openSSLErrors(during: "writing application data")))
        }
        return Output(datagrams: drainDatagrams())
    }

    /// Ends the association as aiortc's `RTCDtlsTransport.stop()` and browsers do when a call
    /// hangs up: one close_notify alert (RFC 5246 §7.2.1), through `SSL_shutdown`, which does not
    /// wait for the peer's. Nothing before the handshake ends, or a second time.
    package func shutdown() -> Output {
        guard isConnected, !hasFailed, !isShutDown else { return Output() }
        isShutDown = true
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
        return Output(datagrams: drainDatagrams())
    }

    /// Whether the peer's close_notify has been read.
    private var peerClosed: Bool { SSL_get_shutdown(ssl) & SSL_RECEIVED_SHUTDOWN != 0 }

    /// Every record's plaintext waiting in the read BIO, in order.
    private func readApplicationData() -> [[UInt8]] {
        var records: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: Self.maxPlaintextBytes)
        // A datagram holds at most 1,500 / 13 records; 128 reads drain any one.
        for _ in 0..<128 {
            let count = SSL_read(ssl, &buffer, Int32(buffer.count))
            if count <= 0 { break }
            records.append(Array(buffer[..<Int(count)]))
        }
        ERR_clear_error()
        return records
    }

    /// Microseconds until OpenSSL's retransmission timer is due (0: now), nil when none runs.
    package var timeoutUs: Int64? {
        let timeout = vload_dtls_timeout_us(ssl)
        return timeout < 0 ? nil : Int64(timeout)
    }

    /// Retransmits the last flight if its timer is due (RFC 6347 §4.2.4).
    package func timerFired() -> Output {
        guard !isConnected, !hasFailed else { return Output() }
        if vload_dtls_handle_timeout(ssl) < 0 {
            hasFailed = true
            return Output(datagrams: drainDatagrams(), failure: .handshake(DTLSFailure.openSSLErrors(during: "retransmitting")))
        }
        return Output(datagrams: drainDatagrams())
    }

    private func step() -> Output {
        guard !isConnected, !hasFailed else { return Output() }
        let result = SSL_do_handshake(ssl)
        var output = Output()
        if result == 1 {
            switch verifiedKeys() {
            case .success(let keys):
                isConnected = true
                output.connected = keys
                // Records that came in the same datagram as the peer's Finished.
                output.applicationData = readApplicationData()
                output.peerClosed = peerClosed
            case .failure(let failure):
                hasFailed = true
                output.failure = failure
            }
        } else {
            let error = SSL_get_error(ssl, result)
            if error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE {
                hasFailed = true
                output.failure = .handshake(DTLSFailure.openSSLErrors(during: "SSL error \(error)"))
            }
        }
        output.datagrams = drainDatagrams()
        return output
    }

    private func verifiedKeys() -> Result<SRTPKeyingMaterial, DTLSFailure> {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return .failure(.handshake("the peer sent no certificate")) }
        defer { X509_free(certificate) }
        var digest = [UInt8](repeating: 0, count: 32)
        guard vload_x509_sha256(certificate, &digest) == 1 else { return .failure(.library("hashing the peer's certificate")) }
        let actual = DTLSFingerprint(hashFunction: "sha-256", digest: digest)
        guard expectedFingerprint.hashFunction == "sha-256", actual == expectedFingerprint else {
            return .failure(.fingerprintMismatch(expected: expectedFingerprint, actual: actual))
        }
        guard let profile = SRTPProfile(rawValue: vload_dtls_srtp_profile(ssl)) else { return .failure(.noSRTPProfile(offered: srtpProfiles)) }
        var exported = [UInt8](repeating: 0, count: SRTPKeyingMaterial.exportedBytes(for: profile))
        let label = SRTPKeyingMaterial.exporterLabel
        let status = label.withCString { labelPointer in
            SSL_export_keying_material(ssl, &exported, exported.count, labelPointer, label.utf8.count, nil, 0, 0)
        }
        guard status == 1 else { return .failure(.library(DTLSFailure.openSSLErrors(during: "exporting the SRTP keys"))) }
        return .success(SRTPKeyingMaterial(exported: exported, isClient: role == .client, profile: profile))
    }

    /// What OpenSSL wrote, cut into whole records and packed into datagrams of at most `mtuBytes`.
    private func drainDatagrams() -> [[UInt8]] {
        var written: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        for _ in 0..<256 {
            let count = BIO_read(writeBIO, &chunk, Int32(chunk.count))
            if count <= 0 { break }
            written += chunk[..<Int(count)]
        }
        return DTLSRecords.datagrams(from: written, mtuBytes: Self.mtuBytes)
    }
}
