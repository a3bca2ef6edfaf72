import NIOCore
import Testing

@testable import WebRTC

/// The address a call offers and which of the answer's candidates it checks (docs/webrtc.md,
/// "Where a call's packets go"). Only loopback is reached here: the route toward an agent
/// elsewhere is the same system calls with another address.
@Suite("The local address toward the agent, and the candidates it reaches")
struct ICELocalAddressTests {
    private func candidate(_ host: String, _ port: UInt16) -> ICECandidate {
        ICECandidate(
            foundation: "1", component: 1, transport: "udp", priority: ICECandidate.priority(kind: .host), host: host, port: port,
            kind: .host)
    }

    @Test("an agent on loopback is reached from 127.0.0.1, or ::1 over IPv6")
    func loopbackRoute() throws {
        #expect(try ICELocalAddress.toward(SocketAddress(ipAddress: "127.0.0.1", port: 7860)) == "127.0.0.1")
        #expect(try ICELocalAddress.toward(SocketAddress(ipAddress: "::1", port: 7860)) == "::1")
    }

    @Test("every candidate of the call's family is checked, loopback or not; never the other family, unspecified, port 0 or twice")
    func reachableCandidates() {
        let answer = [
            candidate("10.0.0.7", 40_000), candidate("127.0.0.1", 50_000), candidate("::1", 50_001), candidate("0.0.0.0", 50_002),
            candidate("203.0.113.9", 3_478), candidate("127.0.0.1", 0), candidate("10.0.0.7", 40_000), candidate("agent.local", 50_004),
            candidate("fd00::2", 50_005), candidate("::", 50_006), candidate("fd00:0:0::2", 50_005),
        ]
        #expect(WebRTCLocalSide.reachable(answer).map(\.description) == ["10.0.0.7:40000", "127.0.0.1:50000", "203.0.113.9:3478"])
        #expect(WebRTCLocalSide.reachable(answer, ipv6: true).map(\.description) == ["[::1]:50001", "[fd00::2]:50005"])
    }

    @Test("a candidate is checked only where this machine has a route; never a multicast, the broadcast or an IPv6 link-local address")
    func routes() throws {
        #expect(ICELocalAddress.hasRoute(to: try #require(STUNAddress(ipv4: "127.0.0.1", port: 9))))
        #expect(!ICELocalAddress.hasRoute(to: try #require(STUNAddress(ipv4: "239.1.2.3", port: 9))))
        #expect(!ICELocalAddress.hasRoute(to: try #require(STUNAddress(ipv4: "255.255.255.255", port: 9))))
        #expect(ICELocalAddress.hasRoute(to: try #require(STUNAddress(ip: "::1", port: 9))))
        #expect(!ICELocalAddress.hasRoute(to: try #require(STUNAddress(ip: "ff02::1", port: 9))))
        #expect(!ICELocalAddress.hasRoute(to: try #require(STUNAddress(ip: "fe80::1", port: 9))))
    }

    @Test("an address reads from either family's text and writes back in its shortest form")
    func addressText() throws {
        #expect(try #require(STUNAddress(ip: "0:0:0:0:0:0:0:1", port: 9)).host == "::1")
        #expect(try #require(STUNAddress(ip: "FD00::2", port: 9)).ipBytes == [0xFD, 0] + [UInt8](repeating: 0, count: 13) + [2])
        #expect(try #require(STUNAddress(ip: "192.0.2.1", port: 9)).isIPv6 == false)
        #expect(STUNAddress(ip: "agent.local", port: 9) == nil)
        #expect(STUNAddress(ip: "[::1]", port: 9) == nil)
        #expect(STUNAddress(ip: "::1%lo", port: 9) == nil)
    }

    @Test("the offer names the run's local address toward the agent as its host candidate")
    func offerCandidate() throws {
        var generator = SystemRandomNumberGenerator()
        let local = WebRTCLocalSide(identity: try DTLSIdentity(), host: "192.168.1.20", generator: &generator)
        let text = local.offer(port: 40_404, ssrc: 7, sessionID: 1).text
        #expect(text.contains("a=candidate:1 1 udp \(ICECandidate.priority(kind: .host)) 192.168.1.20 40404 typ host"))
        #expect(text.contains("c=IN IP4 192.168.1.20"))
        #expect(local.bindHost == "0.0.0.0")
        let ipv6 = WebRTCLocalSide(identity: try DTLSIdentity(), host: "::1", generator: &generator)
        let ipv6Text = ipv6.offer(port: 40_404, ssrc: 7, sessionID: 1).text
        #expect(ipv6Text.contains("a=candidate:1 1 udp \(ICECandidate.priority(kind: .host)) ::1 40404 typ host"))
        #expect(ipv6Text.contains("c=IN IP6 ::1"))
        #expect(ipv6.bindHost == "::")
    }
}
