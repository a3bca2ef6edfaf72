import Testing

@testable import WebRTC

/// Consent freshness (RFC 7675) on synthetic time: checks on the selected pair every 4-6 s,
/// renewed by authentic successes, expiring 30 s after the last one.
@Suite("ICE agent: consent freshness")
struct ICEAgentConsentTests {
    static let mapped = STUNAddress(ipv4: "127.0.0.1", port: 50_000)!

    /// An agent whose pair to `ICEAgentTests.first` was selected at 1 s.
    static func selected(tieBreaker: UInt64 = 1_000) throws -> ICEAgent {
        var agent = ICEAgentTests.agent(remotes: [ICEAgentTests.first], tieBreaker: tieBreaker)
        let check = ICEAgentTests.sent(agent.start(nowUs: 1_000_000))[0].bytes
        _ = agent.receive(try ICEAgentTests.success(for: check, mapped: mapped), from: ICEAgentTests.first, nowUs: 1_000_000)
        try #require(agent.state == .selected(remote: ICEAgentTests.first, iceMs: 0))
        return agent
    }

    /// Fires the agent's timer at its deadline; returns that instant and what it sent.
    static func fire(_ agent: inout ICEAgent) throws -> (atUs: UInt64, sent: [(bytes: [UInt8], to: STUNAddress)], actions: [ICEAction]) {
        let at = try #require(agent.nextDeadlineUs)
        let actions = agent.timerFired(nowUs: at)
        return (at, ICEAgentTests.sent(actions), actions)
    }

    @Test("a consent check goes to the selected pair every 4-6 s, a binding request that nominates nothing")
    func checksTheSelectedPair() throws {
        var agent = try Self.selected()
        var previousUs: UInt64 = 1_000_000
        for round in 1...6 {
            let (at, sent, _) = try Self.fire(&agent)
            #expect((4_000_000...6_000_000) ~= at - previousUs, "round \(round): \(at - previousUs) µs")
            #expect(sent.count == 1 && sent[0].to == ICEAgentTests.first)
            let request = try STUNMessage(parsing: sent[0].bytes, integrityKey: Array(ICEAgentTests.remotePassword.utf8))
            #expect(request.type == .bindingRequest)
            #expect(request.attributes == [
                .username("peerUfrag:vloadUfrag"), .priority(ICECandidate.priority(kind: .prflx)), .iceControlling(tieBreaker: 1_000),
            ])
            _ = agent.receive(try ICEAgentTests.success(for: sent[0].bytes, mapped: Self.mapped), from: ICEAgentTests.first, nowUs: at + 300)
            previousUs = at
        }
        #expect(agent.consentChecksSent == 6 && agent.consentChecksAnswered == 6)
        #expect(agent.state == .selected(remote: ICEAgentTests.first, iceMs: 0))
    }

    @Test("no answer for 30 s: consent expires and the call fails, in one line")
    func expires() throws {
        var agent = try Self.selected()
        var actions: [ICEAction] = []
        for _ in 0..<20 where actions.allSatisfy({ if case .send = $0 { true } else { false } }) {
            actions = try Self.fire(&agent).actions
        }
        #expect(actions == [.failed(.consentExpired(afterMs: 30_000))])
        #expect(agent.state == .failed(.consentExpired(afterMs: 30_000)))
        #expect(agent.nextDeadlineUs == nil)
        #expect(ICEFailure.consentExpired(afterMs: 30_000).description == "ICE consent expired: no answer to consent checks for 30 s")
        // Five or six checks went out in the 30 s, none answered.
        #expect((5...7) ~= agent.consentChecksSent && agent.consentChecksAnswered == 0, "\(agent.consentChecksSent)")
    }

    @Test("a late answer to an earlier check still renews; one from elsewhere, unsigned or unknown does not")
    func renewsOnlyOnAuthenticSuccess() throws {
        var agent = try Self.selected()
        let first = try Self.fire(&agent)
        let second = try Self.fire(&agent)
        let answer = try ICEAgentTests.success(for: first.sent[0].bytes, mapped: Self.mapped)
        _ = agent.receive(answer, from: ICEAgentTests.second, nowUs: second.atUs + 1)
        _ = agent.receive(try ICEAgentTests.success(for: first.sent[0].bytes, mapped: Self.mapped, password: "wrong"), from: ICEAgentTests.first, nowUs: second.atUs + 2)
        #expect(agent.consentChecksAnswered == 0)
        _ = agent.receive(answer, from: ICEAgentTests.first, nowUs: second.atUs + 3)
        #expect(agent.consentChecksAnswered == 1)
        // The same answer again matches no pending check.
        _ = agent.receive(answer, from: ICEAgentTests.first, nowUs: second.atUs + 4)
        #expect(agent.consentChecksAnswered == 1)
        // Consent now runs 30 s from that answer, not from the selection.
        var last: [ICEAction] = []
        var at: UInt64 = 0
        for _ in 0..<20 where last.allSatisfy({ if case .send = $0 { true } else { false } }) {
            (at, _, last) = try Self.fire(&agent)
        }
        #expect(at == second.atUs + 3 + 30_000_000)
    }

    @Test("sessions check out of step: the intervals differ with the tie-breaker")
    func spread() throws {
        let firstChecksUs = try (1...20).map { tieBreaker in try #require(try Self.selected(tieBreaker: UInt64(tieBreaker)).nextDeadlineUs) }
        #expect(Set(firstChecksUs).count == 20)
        #expect(firstChecksUs.allSatisfy { (5_000_000...7_000_000) ~= $0 })
    }
}
