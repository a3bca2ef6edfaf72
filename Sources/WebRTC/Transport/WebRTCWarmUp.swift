/// Runs, before a run's clock starts, the WebRTC code whose first use in a process is slow: in
/// memory, nothing sent.
///
/// libsrtp2 (Debian's is built on NSS) loads and initialises NSS at `srtp_init`: about 33 ms on
/// the 2-core host, and its first session 1.4 ms more. OpenSSL sets up its DTLS and HMAC code at
/// their first use, and usrsctp starts its threads. Left to the first call, that work held its
/// event loop for 40-65 ms once a run, so the replies of the calls on it waited in the socket and
/// a 20-call WebRTC run at the default bound was called invalid for it (receive_lag_ms p99 4-6 ms).
package enum WebRTCWarmUp {
    /// Two endpoints' DTLS handshake in memory, SRTP both ways with the keys they exported (and
    /// with made-up keys for the SRTP profile they did not agree), a
    /// STUN request with MESSAGE-INTEGRITY and FINGERPRINT written and read back, usrsctp started.
    /// Whether every step worked; one that did not leaves the run as it was (the call that meets
    /// the same failure reports it).
    ///
    /// Once a process: what it warms is the process's (NSS, OpenSSL's tables, usrsctp's threads),
    /// so a run and its in-process simulator, which both ask, pay for it once.
    @discardableResult
    package static func run() -> Bool { warmed }

    private static let warmed: Bool = {
        SCTPAssociation.startLibrary()
        return warmSTUN() && warmDTLSAndSRTP()
    }()

    private static func warmSTUN() -> Bool {
        let key = Array("warm-up password".utf8)
        let request = STUNMessage(
            type: .bindingRequest,
            transactionID: STUNTransactionID(bytes: Array(repeating: 7, count: STUNTransactionID.byteCount)),
            attributes: [.username("warm:up"), .priority(1), .iceControlling(tieBreaker: 1)]
        )
        let bytes = request.serialized(integrityKey: key, fingerprint: true)
        return (try? STUNMessage(parsing: bytes, integrityKey: key))?.hadIntegrity == true
    }

    private static func warmDTLSAndSRTP() -> Bool {
        guard let clientIdentity = try? DTLSIdentity(), let serverIdentity = try? DTLSIdentity(),
            let client = try? DTLSEndpoint(identity: clientIdentity, role: .client, expectedFingerprint: serverIdentity.fingerprint),
            let server = try? DTLSEndpoint(identity: serverIdentity, role: .server, expectedFingerprint: clientIdentity.fingerprint)
        else { return false }
        let outcome = DTLSMemoryHandshake.run(client: client, server: server)
        guard let clientKeys = outcome.clientKeys, let serverKeys = outcome.serverKeys,
            warm(
                sender: try? SRTPSession(keys: clientKeys, direction: .outbound),
                receiver: try? SRTPSession(keys: serverKeys, direction: .inbound)
            )
        else { return false }
        // The profile the handshake agreed is warmed with its keys; every other profile a peer
        // may agree instead, with made-up ones.
        return SRTPProfile.offered.filter { $0 != clientKeys.profile }.allSatisfy { profile in
            let keyAndSalt = [UInt8](repeating: 0x5A, count: profile.keyAndSaltBytes)
            return warm(
                sender: try? SRTPSession(profile: profile, keyAndSalt: keyAndSalt, direction: .outbound),
                receiver: try? SRTPSession(profile: profile, keyAndSalt: keyAndSalt, direction: .inbound)
            )
        }
    }

    /// One RTP packet protected by `sender` and unprotected by `receiver`, keyed alike: whether
    /// both sessions exist and the packet came back as it went.
    private static func warm(sender: SRTPSession?, receiver: SRTPSession?) -> Bool {
        guard let sender, let receiver else { return false }
        let rtp: [UInt8] = [0x80, 111, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1] + Array(repeating: 0, count: 40)
        guard let protected = try? sender.protect(rtp) else { return false }
        return (try? receiver.unprotect(protected)) == rtp
    }
}
