/// What vload puts in its offer for one session: fresh ICE credentials, a tie-breaker and
/// transaction IDs' prefix, and the run's DTLS identity.
package struct WebRTCLocalSide: Sendable {
    package let iceUfrag: String
    package let icePassword: String
    package let tieBreaker: UInt64
    package let transactionPrefix: [UInt8]
    package let identity: DTLSIdentity
    /// The address the call offers as its host candidate (`ICELocalAddress`): loopback for an
    /// agent on this machine, an interface's address for one elsewhere; IPv4 or IPv6, as the
    /// signalling host is reached. The socket itself is bound on every address of that family
    /// (`bindHost`), so it can reach any of the answer's candidates of that family.
    package let host: String
    /// Where the call's UDP socket binds: `0.0.0.0` for an IPv4 host candidate, `::` for an IPv6 one.
    package var bindHost: String { isIPv6 ? "::" : "0.0.0.0" }
    private let isIPv6: Bool
    /// The mean time between consent checks once connected (RFC 7675's 5 s; tests shorten it).
    package var consentIntervalUs: UInt64 = 5_000_000

    package init(identity: DTLSIdentity, host: String = "127.0.0.1", generator: inout some RandomNumberGenerator) {
        let credentials = SDPOffer.iceCredentials(generator: &generator)
        self.iceUfrag = credentials.ufrag
        self.icePassword = credentials.password
        self.tieBreaker = UInt64.random(in: .min ... .max, using: &generator)
        self.transactionPrefix = (0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.identity = identity
        self.host = host
        self.isIPv6 = STUNAddress(ip: host, port: 0)?.isIPv6 ?? false
    }

    /// The offer for a host candidate at `host`:`port` and the caller's RTP stream `ssrc`.
    package func offer(port: UInt16, ssrc: UInt32, sessionID: UInt64) -> SDPOffer {
        SDPOffer(
            sessionID: sessionID, iceUfrag: iceUfrag, icePassword: icePassword,
            candidate: ICECandidate(
                foundation: "1", component: 1, transport: "udp", priority: ICECandidate.priority(kind: .host), host: host, port: port,
                kind: .host),
            fingerprint: identity.fingerprint, ssrc: ssrc, cname: "vload")
    }

    /// The ICE agent's configuration once the answer is in: the answer's candidates this
    /// socket can send to (`reachable`) and this machine has a route to
    /// (`ICELocalAddress.hasRoute(to:)`).
    package func iceConfiguration(answer: SDPAnswer) -> ICEAgentConfiguration {
        let reachable = Self.reachable(answer.candidates, ipv6: isIPv6).filter(ICELocalAddress.hasRoute(to:))
        return ICEAgentConfiguration(
            localUfrag: iceUfrag, localPassword: icePassword, remoteUfrag: answer.iceUfrag, remotePassword: answer.icePassword,
            remoteAddresses: reachable, remoteIsLite: answer.iceLite, tieBreaker: tieBreaker, transactionPrefix: transactionPrefix,
            consentIntervalUs: consentIntervalUs)
    }

    /// The candidates the call's socket checks: every one of its family, IPv4 or IPv6 (the
    /// socket is bound on all of this machine's addresses of that family, so the kernel sends
    /// each check from the address that reaches its candidate), unspecified addresses, port 0
    /// and host names left out. Checked all at once: an answer lists a handful (docs/webrtc.md).
    package static func reachable(_ candidates: [ICECandidate], ipv6: Bool = false) -> [STUNAddress] {
        var addresses: [STUNAddress] = []
        for candidate in candidates {
            guard let address = STUNAddress(ip: candidate.host, port: candidate.port), address.isIPv6 == ipv6, address.port != 0,
                address.ipBytes.contains(where: { $0 != 0 }), !addresses.contains(address)
            else { continue }
            addresses.append(address)
        }
        return addresses
    }
}
