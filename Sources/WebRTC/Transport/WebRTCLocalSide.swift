/// What vload puts in its offer for one session: fresh ICE credentials, a tie-breaker and
/// transaction IDs' prefix, and the run's DTLS identity.
package struct WebRTCLocalSide: Sendable {
    package let iceUfrag: String
    package let icePassword: String
    package let tieBreaker: UInt64
    package let transactionPrefix: [UInt8]
    package let identity: DTLSIdentity
    /// The mean time between consent checks once connected (RFC 7675's 5 s; tests shorten it).
    package var consentIntervalUs: UInt64 = 5_000_000

    package init(identity: DTLSIdentity, generator: inout some RandomNumberGenerator) {
        let credentials = SDPOffer.iceCredentials(generator: &generator)
        self.iceUfrag = credentials.ufrag
        self.icePassword = credentials.password
        self.tieBreaker = UInt64.random(in: .min ... .max, using: &generator)
        self.transactionPrefix = (0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.identity = identity
    }

    /// The offer for a host candidate at `host`:`port` and the caller's RTP stream `ssrc`.
    package func offer(host: String, port: UInt16, ssrc: UInt32, sessionID: UInt64) -> SDPOffer {
        SDPOffer(
            sessionID: sessionID, iceUfrag: iceUfrag, icePassword: icePassword,
            candidate: ICECandidate(
                foundation: "1", component: 1, transport: "udp", priority: ICECandidate.priority(kind: .host), host: host, port: port,
                kind: .host),
            fingerprint: identity.fingerprint, ssrc: ssrc, cname: "vload")
    }

    /// The ICE agent's configuration once the answer is in: the answer's IPv4 loopback candidates.
    package func iceConfiguration(answer: SDPAnswer) -> ICEAgentConfiguration {
        let reachable = answer.candidates.compactMap { candidate -> STUNAddress? in
            guard let address = STUNAddress(ipv4: candidate.host, port: candidate.port), address.ipBytes[0] == 127 else { return nil }
            return address
        }
        return ICEAgentConfiguration(
            localUfrag: iceUfrag, localPassword: icePassword, remoteUfrag: answer.iceUfrag, remotePassword: answer.icePassword,
            remoteAddresses: reachable, remoteIsLite: answer.iceLite, tieBreaker: tieBreaker, transactionPrefix: transactionPrefix,
            consentIntervalUs: consentIntervalUs)
    }
}
