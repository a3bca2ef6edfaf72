/// What vload's ICE agent knows before its first check: both sides' credentials from the offer
/// and answer, its tie-breaker, and its timers.
package struct ICEAgentConfiguration: Sendable, Hashable {
    package var localUfrag: String
    package var localPassword: String
    package var remoteUfrag: String
    package var remotePassword: String
    /// The answer's candidates that vload can reach: those of its host candidate's family with a route (`WebRTCLocalSide`).
    package var remoteAddresses: [STUNAddress]
    /// Whether the answerer is an ICE-lite agent (RFC 8445 §2.5): it only answers checks.
    package var remoteIsLite: Bool
    /// Decides a role conflict (RFC 8445 §7.3.1.1); random per session.
    package var tieBreaker: UInt64
    /// The first 8 bytes of every transaction ID; the last 4 count the checks sent.
    package var transactionPrefix: [UInt8]
    /// The first retransmission timeout; it doubles per retransmission (RFC 8489 §6.2.1).
    package var initialRetransmitUs: UInt64
    /// How many times a check is sent before its pair fails (RFC 8489's Rc).
    package var maximumTransmissions: Int
    /// How long ICE may take from the first check before it fails.
    package var timeoutUs: UInt64
    /// The mean time between consent checks on the selected pair (RFC 7675 §5.1: 5 s).
    package var consentIntervalUs: UInt64
    /// How long consent lasts without an answer (RFC 7675 §5.1: 30 s).
    package var consentTimeoutUs: UInt64

    package init(
        localUfrag: String, localPassword: String, remoteUfrag: String, remotePassword: String, remoteAddresses: [STUNAddress],
        remoteIsLite: Bool, tieBreaker: UInt64, transactionPrefix: [UInt8], initialRetransmitUs: UInt64 = 250_000,
        maximumTransmissions: Int = 7, timeoutUs: UInt64 = 10_000_000, consentIntervalUs: UInt64 = 5_000_000,
        consentTimeoutUs: UInt64 = 30_000_000
    ) {
        precondition(transactionPrefix.count == 8, "the transaction prefix is 8 bytes, got \(transactionPrefix.count)")
        self.localUfrag = localUfrag
        self.localPassword = localPassword
        self.remoteUfrag = remoteUfrag
        self.remotePassword = remotePassword
        self.remoteAddresses = remoteAddresses
        self.remoteIsLite = remoteIsLite
        self.tieBreaker = tieBreaker
        self.transactionPrefix = transactionPrefix
        self.initialRetransmitUs = initialRetransmitUs
        self.maximumTransmissions = maximumTransmissions
        self.timeoutUs = timeoutUs
        self.consentIntervalUs = consentIntervalUs
        self.consentTimeoutUs = consentTimeoutUs
    }

    /// The PRIORITY a check carries: what a peer-reflexive candidate of vload's would have (RFC 8445 §7.1.1).
    var checkPriority: UInt32 { ICECandidate.priority(kind: .prflx) }
}
