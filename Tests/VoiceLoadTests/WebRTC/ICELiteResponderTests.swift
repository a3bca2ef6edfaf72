import Testing

@testable import WebRTC

/// The ICE-lite responder against vload's own controlling agent, both as values: the agent's
/// check is answered and selects the pair on both sides; what is not authentic gets nothing.
@Suite("ICE-lite responder")
struct ICELiteResponderTests {
    static let caller = STUNAddress(ipv4: "127.0.0.1", port: 50_000)!
    static let answerer = STUNAddress(ipv4: "127.0.0.1", port: 40_500)!
    static let password = "simPassword0123456789abc"

    static func responder() -> ICELiteResponder {
        ICELiteResponder(localUfrag: "simUfrag", localPassword: password, remoteUfrag: "vloadUfrag")
    }

    static func agent(remotePassword: String = password, remoteUfrag: String = "simUfrag") -> ICEAgent {
        ICEAgent(
            configuration: ICEAgentConfiguration(
                localUfrag: "vloadUfrag", localPassword: "vloadPassword0123456789+", remoteUfrag: remoteUfrag,
                remotePassword: remotePassword, remoteAddresses: [answerer], remoteIsLite: true, tieBreaker: 7,
                transactionPrefix: Array(1...8)))
    }

    static func firstCheck(of agent: inout ICEAgent) throws -> [UInt8] {
        let actions = agent.start(nowUs: 1_000)
        guard case .send(let bytes, let to)? = actions.first, to == answerer else { throw ChecksMissing() }
        return bytes
    }

    struct ChecksMissing: Error {}

    @Test("vload's nominating check is answered, signed; the pair is selected on both sides, once")
    func answersAndSelects() throws {
        var agent = Self.agent()
        var responder = Self.responder()
        let check = try Self.firstCheck(of: &agent)
        let actions = responder.receive(check, from: Self.caller)
        #expect(actions.count == 2 && actions.last == .selected(remote: Self.caller))
        guard case .send(let response, let to)? = actions.first else {
            Issue.record("no response")
            return
        }
        #expect(to == Self.caller)
        let parsed = try STUNMessage(parsing: response, integrityKey: Array(Self.password.utf8))
        #expect(parsed.type == .bindingSuccess && parsed.hadIntegrity && parsed.hadFingerprint)
        #expect(parsed.attributes == [.xorMappedAddress(Self.caller)])
        #expect(agent.receive(response, from: Self.answerer, nowUs: 1_500) == [.selected(remote: Self.answerer, iceMs: 0.5)])
        // The same pair nominated again (a retransmission, a consent check) answers without reselecting.
        #expect(responder.receive(check, from: Self.caller).count == 1)
        #expect(responder.selected == Self.caller && responder.requestsAnswered == 2 && responder.requestsRejected == 0)
    }

    @Test("a check under another password or for another ufrag gets no answer and is counted")
    func rejectsUnauthentic() throws {
        var responder = Self.responder()
        var wrongPassword = Self.agent(remotePassword: "otherPassword0123456789a")
        var wrongUfrag = Self.agent(remoteUfrag: "otherUfrag")
        #expect(responder.receive(try Self.firstCheck(of: &wrongPassword), from: Self.caller).isEmpty)
        #expect(responder.receive(try Self.firstCheck(of: &wrongUfrag), from: Self.caller).isEmpty)
        #expect(responder.requestsRejected == 2 && responder.selected == nil)
    }

    @Test("a check that says ICE-CONTROLLED gets 487 Role Conflict; indications and responses get nothing")
    func roleConflictAndOthers() throws {
        var responder = Self.responder()
        let key = Array(Self.password.utf8)
        let transactionID = STUNTransactionID(bytes: Array(0..<12))
        let controlled = STUNMessage(
            type: .bindingRequest, transactionID: transactionID, attributes: [.username("simUfrag:vloadUfrag"), .iceControlled(tieBreaker: 3)])
        let actions = responder.receive(controlled.serialized(integrityKey: key, fingerprint: true), from: Self.caller)
        guard case .send(let bytes, _)? = actions.first, actions.count == 1 else {
            Issue.record("no answer")
            return
        }
        let error = try STUNMessage(parsing: bytes, integrityKey: key)
        #expect(error.type == .bindingError && error.attributes == [.errorCode(code: 487, reason: "Role Conflict")])
        let indication = STUNMessage(type: .bindingIndication, transactionID: transactionID, attributes: [])
        #expect(responder.receive(indication.serialized(integrityKey: nil, fingerprint: true), from: Self.caller).isEmpty)
        let success = STUNMessage(type: .bindingSuccess, transactionID: transactionID, attributes: [.xorMappedAddress(Self.caller)])
        #expect(responder.receive(success.serialized(integrityKey: key, fingerprint: true), from: Self.caller).isEmpty)
        #expect(responder.selected == nil)
    }
}
