import Testing
@testable import WSServer

@testable import AgentSimulator

/// The simulator's WebRTC answer names the address the offer came to (docs/webrtc.md).
@Suite("The simulator's WebRTC socket binds where the offer came in")
struct SimulatorWebRTCAddressTests {
    private func request(to localHost: String?) -> PlainHTTPRequest {
        PlainHTTPRequest(method: "POST", target: "/api/offer", headers: [], body: [], localHost: localHost)
    }

    @Test("an IPv4 or IPv6 address is used as it is, an IPv4-mapped one unmapped; none or IPv6 link-local falls back to 127.0.0.1")
    func udpHost() {
        #expect(SimulatorWebRTCAnswerer.udpHost(request(to: "127.0.0.1")) == "127.0.0.1")
        #expect(SimulatorWebRTCAnswerer.udpHost(request(to: "192.168.1.20")) == "192.168.1.20")
        #expect(SimulatorWebRTCAnswerer.udpHost(request(to: "::ffff:192.168.1.20")) == "192.168.1.20")
        #expect(SimulatorWebRTCAnswerer.udpHost(request(to: "::1")) == "::1")
        #expect(SimulatorWebRTCAnswerer.udpHost(request(to: "fd00:0::2")) == "fd00::2")
        #expect(SimulatorWebRTCAnswerer.udpHost(request(to: "fe80::1")) == "127.0.0.1")
        #expect(SimulatorWebRTCAnswerer.udpHost(request(to: nil)) == "127.0.0.1")
    }
}
