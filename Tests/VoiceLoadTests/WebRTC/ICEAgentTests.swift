import Testing

@testable import WebRTC

/// The ICE agent on synthetic time: checks, answers, retransmissions and failures.
@Suite("ICE agent")
struct ICEAgentTests {
    static let first = STUNAddress(ipv4: "127.0.0.1", port: 40_000)!
    static let second = STUNAddress(ipv4: "127.0.0.1", port: 40_002)!
    static let localPassword = "vloadPassword0123456789+"
    static let remotePassword = "peerPassword0123456789ab"

    static func agent(remotes: [STUNAddress] = [first, second], lite: Bool = false, tieBreaker: UInt64 = 1_000) -> ICEAgent {
        ICEAgent(
            configuration: ICEAgentConfiguration(
                localUfrag: "vloadUfrag", localPassword: localPassword, remoteUfrag: "peerUfrag", remotePassword: remotePassword,
                remoteAddresses: remotes, remoteIsLite: lite, tieBreaker: tieBreaker, transactionPrefix: Array(1...8),
                initialRetransmitUs: 100_000, maximumTransmissions: 3, timeoutUs: 5_000_000))
    }

    static func sent(_ actions: [ICEAction]) -> [(bytes: [UInt8], to: STUNAddress)] {
        actions.compactMap { if case .send(let bytes, let to) = $0 { (bytes, to) } else { nil } }
    }

    static func success(for request: [UInt8], mapped: STUNAddress, password: String = remotePassword) throws -> [UInt8] {
        let parsed = try STUNMessage(parsing: request, integrityKey: nil)
        return STUNMessage(type: .bindingSuccess, transactionID: parsed.transactionID, attributes: [.xorMappedAddress(mapped)])
            .serialized(integrityKey: Array(password.utf8), fingerprint: true)
    }

    @Test("checks every remote candidate, nominating in each, and selects the first pair that succeeds", arguments: [false, true])
    func selectsFirstSuccess(lite: Bool) throws {
        var agent = Self.agent(lite: lite)
        let checks = Self.sent(agent.start(nowUs: 1_000_000))
        #expect(checks.map(\.to) == [Self.first, Self.second])
        let request = try STUNMessage(parsing: checks[1].bytes, integrityKey: Array(Self.remotePassword.utf8))
        #expect(request.type == .bindingRequest)
        #expect(request.attributes == [
            .username("peerUfrag:vloadUfrag"), .priority(ICECandidate.priority(kind: .prflx)), .iceControlling(tieBreaker: 1_000),
            .useCandidate,
        ])
        #expect(request.hadFingerprint)
        let mapped = STUNAddress(ipv4: "127.0.0.1", port: 50_000)!
        let actions = agent.receive(try Self.success(for: checks[1].bytes, mapped: mapped), from: Self.second, nowUs: 1_002_500)
        #expect(actions == [.selected(remote: Self.second, iceMs: 2.5)])
        #expect(agent.state == .selected(remote: Self.second, iceMs: 2.5))
        // From here the agent keeps consent (ICEAgentConsentTests): its first check 4-6 s on.
        let consentCheckUs = try #require(agent.nextDeadlineUs)
        #expect((1_002_500 + 4_000_000)...(1_002_500 + 6_000_000) ~= consentCheckUs)
        // A late success on the other pair changes nothing.
        #expect(agent.receive(try Self.success(for: checks[0].bytes, mapped: mapped), from: Self.first, nowUs: 1_003_000).isEmpty)
    }

    @Test("a response not signed with the peer's password, from elsewhere, or for no check is dropped")
    func dropsUnauthenticResponses() throws {
        var agent = Self.agent(remotes: [Self.first])
        let check = Self.sent(agent.start(nowUs: 0))[0].bytes
        let mapped = STUNAddress(ipv4: "127.0.0.1", port: 50_000)!
        #expect(agent.receive(try Self.success(for: check, mapped: mapped, password: "wrong"), from: Self.first, nowUs: 10).isEmpty)
        #expect(agent.receive(try Self.success(for: check, mapped: mapped), from: Self.second, nowUs: 10).isEmpty)
        let stranger = STUNMessage(type: .bindingSuccess, transactionID: STUNTransactionID(bytes: Array(repeating: 9, count: 12)), attributes: [])
            .serialized(integrityKey: Array(Self.remotePassword.utf8), fingerprint: true)
        #expect(agent.receive(stranger, from: Self.first, nowUs: 10).isEmpty)
        #expect(agent.state == .checking(firstCheckUs: 0))
    }

    @Test("answers the peer's authentic checks with where they came from, signed with vload's password")
    func answersPeerChecks() throws {
        var agent = Self.agent(remotes: [Self.first])
        _ = agent.start(nowUs: 0)
        let transactionID = STUNTransactionID(bytes: Array(repeating: 7, count: 12))
        let request = STUNMessage(
            type: .bindingRequest, transactionID: transactionID,
            attributes: [.username("vloadUfrag:peerUfrag"), .priority(5), .iceControlled(tieBreaker: 4)])
        let replies = Self.sent(agent.receive(request.serialized(integrityKey: Array(Self.localPassword.utf8), fingerprint: true), from: Self.first, nowUs: 5))
        #expect(replies.map(\.to) == [Self.first])
        let response = try STUNMessage(parsing: replies[0].bytes, integrityKey: Array(Self.localPassword.utf8))
        #expect(response.type == .bindingSuccess && response.transactionID == transactionID)
        #expect(response.attributes == [.xorMappedAddress(Self.first)])
        #expect(agent.requestsAnswered == 1)
        // Signed with another password, or for another ufrag: no answer.
        #expect(agent.receive(request.serialized(integrityKey: Array("wrong".utf8), fingerprint: true), from: Self.first, nowUs: 6).isEmpty)
        var otherUfrag = request
        otherUfrag.attributes[0] = .username("someoneElse:peerUfrag")
        #expect(agent.receive(otherUfrag.serialized(integrityKey: Array(Self.localPassword.utf8), fingerprint: true), from: Self.first, nowUs: 7).isEmpty)
        #expect(agent.requestsRejected == 2)
    }

    @Test("a check from an address the answer did not list is answered and checked back (peer-reflexive)")
    func peerReflexive() throws {
        var agent = Self.agent(remotes: [Self.first])
        _ = agent.start(nowUs: 0)
        let request = STUNMessage(
            type: .bindingRequest, transactionID: STUNTransactionID(bytes: Array(repeating: 3, count: 12)),
            attributes: [.username("vloadUfrag:peerUfrag"), .iceControlled(tieBreaker: 4)])
        let sent = Self.sent(agent.receive(request.serialized(integrityKey: Array(Self.localPassword.utf8), fingerprint: true), from: Self.second, nowUs: 5))
        #expect(sent.map(\.to) == [Self.second, Self.second])
        #expect(try STUNMessage(parsing: sent[1].bytes, integrityKey: nil).type == .bindingRequest)
    }

    @Test("retransmits with a doubling timeout, then fails when no check is answered")
    func retransmitsThenFails() throws {
        var agent = Self.agent(remotes: [Self.first])
        let check = Self.sent(agent.start(nowUs: 0))[0].bytes
        #expect(agent.nextDeadlineUs == 100_000)
        #expect(agent.timerFired(nowUs: 99_999).isEmpty)
        #expect(Self.sent(agent.timerFired(nowUs: 100_000)).map(\.bytes) == [check])
        #expect(agent.nextDeadlineUs == 300_000)
        #expect(Self.sent(agent.timerFired(nowUs: 300_000)).map(\.bytes) == [check])
        #expect(agent.nextDeadlineUs == 700_000)
        #expect(agent.timerFired(nowUs: 700_000) == [.failed(.allChecksFailed(remotes: 1))])
        #expect(agent.nextDeadlineUs == nil)
    }

    @Test("fails at the overall timeout, with no candidate, and on a role conflict")
    func failures() throws {
        var slow = Self.agent(remotes: [Self.first])
        _ = slow.start(nowUs: 0)
        #expect(slow.timerFired(nowUs: 5_000_000) == [.failed(.timedOut(afterMs: 5_000))])
        var empty = Self.agent(remotes: [])
        #expect(empty.start(nowUs: 0) == [.failed(.noReachableCandidate)])
        var conflicted = Self.agent(remotes: [Self.first])
        let check = try STUNMessage(parsing: Self.sent(conflicted.start(nowUs: 0))[0].bytes, integrityKey: nil)
        let error = STUNMessage(type: .bindingError, transactionID: check.transactionID, attributes: [.errorCode(code: 487, reason: "Role Conflict")])
            .serialized(integrityKey: Array(Self.remotePassword.utf8), fingerprint: true)
        #expect(conflicted.receive(error, from: Self.first, nowUs: 1) == [.failed(.roleConflict)])
    }

    @Test("a controlling peer with a lower tie-breaker gets 487 Role Conflict")
    func answersRoleConflict() throws {
        var agent = Self.agent(remotes: [Self.first], tieBreaker: 10)
        _ = agent.start(nowUs: 0)
        let request = STUNMessage(
            type: .bindingRequest, transactionID: STUNTransactionID(bytes: Array(repeating: 5, count: 12)),
            attributes: [.username("vloadUfrag:peerUfrag"), .iceControlling(tieBreaker: 9)])
        let reply = Self.sent(agent.receive(request.serialized(integrityKey: Array(Self.localPassword.utf8), fingerprint: true), from: Self.first, nowUs: 1))
        let response = try STUNMessage(parsing: reply[0].bytes, integrityKey: Array(Self.localPassword.utf8))
        #expect(response.type == .bindingError)
        #expect(response.attributes == [.errorCode(code: 487, reason: "Role Conflict")])
    }
}
