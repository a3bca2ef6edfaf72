/// vload's ICE agent (RFC 8445) as a value: the controlling side of one component with one host
/// candidate. It checks every reachable remote candidate with USE-CANDIDATE in each check
/// (aggressive nomination, which full agents such as aioice and ICE-lite agents both accept), so
/// the first pair whose check succeeds is the selected pair. It answers the peer's own checks
/// before and after that. One input per event; the I/O around it sends what it returns and
/// calls `timerFired` at `nextDeadlineUs`.
package struct ICEAgent: Sendable {
    package enum State: Sendable, Hashable {
        case new
        case checking(firstCheckUs: UInt64)
        case selected(remote: STUNAddress, iceMs: Double)
        case failed(ICEFailure)
    }

    struct Check: Sendable, Hashable {
        var transactionID: STUNTransactionID
        var remote: STUNAddress
        var request: [UInt8]
        var transmissions: Int
        var nextTransmitUs: UInt64
        var retransmitUs: UInt64
    }

    package let configuration: ICEAgentConfiguration
    package internal(set) var state: State = .new
    var checks: [Check] = []
    var failedRemotes: Set<STUNAddress> = []
    private var checksSent: UInt32 = 0
    /// Consent freshness on the selected pair (`ICEAgent+Consent`); nil before selection.
    var consent: ConsentFreshness?
    var consentCounts = (sent: 0, answered: 0)
    /// The peer's checks vload answered, and those dropped as not authentic.
    package internal(set) var requestsAnswered = 0
    package internal(set) var requestsRejected = 0

    package init(configuration: ICEAgentConfiguration) {
        self.configuration = configuration
    }

    /// When `timerFired` is next due: a retransmission or the overall timeout while checking,
    /// then the next consent check or consent's expiry; nil once failed.
    package var nextDeadlineUs: UInt64? {
        switch state {
        case .checking(let firstCheckUs): return (checks.map(\.nextTransmitUs) + [firstCheckUs + configuration.timeoutUs]).min()
        case .selected: return consentDeadlineUs
        case .new, .failed: return nil
        }
    }

    /// Starts checking every remote address; fails at once when there is none.
    package mutating func start(nowUs: UInt64) -> [ICEAction] {
        guard case .new = state else { return [] }
        guard !configuration.remoteAddresses.isEmpty else { return fail(.noReachableCandidate) }
        state = .checking(firstCheckUs: nowUs)
        return configuration.remoteAddresses.map { startCheck(to: $0, nowUs: nowUs) }
    }

    /// A STUN datagram from `source`: a peer's check to answer, or a response to one of vload's.
    package mutating func receive(_ bytes: [UInt8], from source: STUNAddress, nowUs: UInt64) -> [ICEAction] {
        guard bytes.count >= STUNMessage.headerByteCount else { return [] }
        if bytes[0] == 0x00 && bytes[1] == 0x01 { return answerRequest(bytes, from: source, nowUs: nowUs) }
        return handleResponse(bytes, from: source, nowUs: nowUs)
    }

    /// Retransmits the checks that are due, fails the pairs out of transmissions, and fails ICE
    /// when no pair is left or the timeout has passed; once selected, keeps consent.
    package mutating func timerFired(nowUs: UInt64) -> [ICEAction] {
        if case .selected = state { return consentTimerFired(nowUs: nowUs) }
        guard case .checking(let firstCheckUs) = state else { return [] }
        if nowUs >= firstCheckUs + configuration.timeoutUs { return fail(.timedOut(afterMs: Double(configuration.timeoutUs) / 1_000)) }
        var actions: [ICEAction] = []
        for index in checks.indices.reversed() where checks[index].nextTransmitUs <= nowUs {
            if checks[index].transmissions >= configuration.maximumTransmissions {
                failedRemotes.insert(checks[index].remote)
                checks.remove(at: index)
                continue
            }
            checks[index].transmissions += 1
            checks[index].retransmitUs *= 2
            checks[index].nextTransmitUs = nowUs + checks[index].retransmitUs
            actions.append(.send(checks[index].request, to: checks[index].remote))
        }
        if checks.isEmpty { return actions + fail(.allChecksFailed(remotes: failedRemotes.count)) }
        return actions
    }

    mutating func startCheck(to remote: STUNAddress, nowUs: UInt64) -> ICEAction {
        let (transactionID, request) = bindingRequest(nominating: true)
        checks.append(
            Check(
                transactionID: transactionID, remote: remote, request: request, transmissions: 1,
                nextTransmitUs: nowUs + configuration.initialRetransmitUs, retransmitUs: configuration.initialRetransmitUs))
        return .send(request, to: remote)
    }

    /// A binding request signed with the peer's password, with a fresh transaction ID: a
    /// connectivity check (`nominating`: USE-CANDIDATE) or a consent check.
    mutating func bindingRequest(nominating: Bool) -> (STUNTransactionID, [UInt8]) {
        checksSent += 1
        let transactionID = STUNTransactionID(bytes: configuration.transactionPrefix + STUNBytes.bigEndian(checksSent))
        var attributes: [STUNAttribute] = [
            .username("\(configuration.remoteUfrag):\(configuration.localUfrag)"),
            .priority(configuration.checkPriority),
            .iceControlling(tieBreaker: configuration.tieBreaker),
        ]
        if nominating { attributes.append(.useCandidate) }
        let request = STUNMessage(type: .bindingRequest, transactionID: transactionID, attributes: attributes)
        return (transactionID, request.serialized(integrityKey: Array(configuration.remotePassword.utf8), fingerprint: true))
    }

    mutating func fail(_ failure: ICEFailure) -> [ICEAction] {
        state = .failed(failure)
        checks = []
        return [.failed(failure)]
    }
}

/// What the I/O does for the ICE agent.
package enum ICEAction: Sendable, Hashable {
    case send([UInt8], to: STUNAddress)
    /// The selected pair (RFC 8445 §8.1.1), and ICE's time from the first check to it.
    case selected(remote: STUNAddress, iceMs: Double)
    case failed(ICEFailure)
}

/// Why ICE found no pair; each is one line in the session's error.
package enum ICEFailure: Error, Sendable, Hashable, CustomStringConvertible {
    case noReachableCandidate
    case allChecksFailed(remotes: Int)
    case timedOut(afterMs: Double)
    case roleConflict
    /// The selected pair went unanswered for consent's timeout (RFC 7675): the peer is gone.
    case consentExpired(afterMs: Double)

    package var description: String {
        switch self {
        case .noReachableCandidate: return "ICE failed: the answer has no UDP candidate vload can reach of the signalling host's family, IPv4 or IPv6 (a loopback or local one for an agent on this machine, another for one elsewhere)"
        case .allChecksFailed(let remotes): return "ICE failed: no answer to the connectivity checks of \(remotes) candidate(s)"
        case .timedOut(let afterMs): return "ICE failed: no pair selected within \(Int(afterMs)) ms"
        case .roleConflict: return "ICE failed: the answerer also claims the controlling role"
        case .consentExpired(let afterMs): return "ICE consent expired: no answer to consent checks for \(Int(afterMs / 1_000)) s"
        }
    }
}
