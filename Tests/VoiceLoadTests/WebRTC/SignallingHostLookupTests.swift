import Dispatch
import NIOCore
import Testing

@testable import VoiceLoad
@testable import WSClient

/// The signalling host's lookup at a WebRTC run's start (docs/webrtc.md, "Where a call's packets
/// go"): the WebSocket connect's own `getaddrinfo`, waited for at most a bound. Names other than
/// loopback's are looked up by stand-ins here: a test sends nothing past 127.0.0.1.
@Suite("The signalling host's lookup at a WebRTC run's start")
struct SignallingHostLookupTests {
    @Test("an IPv4 literal and the name localhost both give 127.0.0.1")
    func loopback() throws {
        for host in ["127.0.0.1", "localhost"] {
            let address = try SignallingHostLookup.address(host: host, port: 7860, dialect: "pipecat-webrtc")
            #expect(address.ipAddress == "127.0.0.1", "\(host)")
        }
    }

    @Test("a lookup that does not answer in time is one line naming the host and the time waited")
    func timeout() {
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        #expect(throws: InputError("pipecat-webrtc: cannot resolve agent.example: no answer within 50 ms")) {
            try SignallingHostLookup.address(host: "agent.example", port: 7860, dialect: "pipecat-webrtc", timeoutMs: 50) { _, _ in
                release.wait()
                return ([], [])
            }
        }
    }

    @Test("an IPv6 literal gives ::1; a name with both families gives its IPv4 address, one with IPv6 only its IPv6 one")
    func families() throws {
        #expect(try SignallingHostLookup.address(host: "::1", port: 7860, dialect: "pipecat-webrtc").ipAddress == "::1")
        let both = try SignallingHostLookup.address(host: "agent.example", port: 443, dialect: "openai-realtime-webrtc") { _, port in
            ([try SocketAddress(ipAddress: "2001:db8::1", port: port)], [try SocketAddress(ipAddress: "192.0.2.7", port: port)])
        }
        #expect(both.ipAddress == "192.0.2.7")
        let ipv6Only = try SignallingHostLookup.address(host: "agent.example", port: 443, dialect: "openai-realtime-webrtc") { _, port in
            ([try SocketAddress(ipAddress: "2001:db8::1", port: port)], [])
        }
        #expect(ipv6Only.ipAddress == "2001:db8::1")
    }

    @Test("a name that does not resolve, and one that resolves to nothing, are one line each")
    func failures() {
        #expect(throws: InputError("pipecat-webrtc: cannot resolve agent.example: Name or service not known")) {
            try SignallingHostLookup.address(host: "agent.example", port: 7860, dialect: "pipecat-webrtc") { host, _ in
                throw TimedResolver.LookupError(host: host, reason: "Name or service not known")
            }
        }
        #expect(throws: InputError("openai-realtime-webrtc: cannot resolve agent.example: no address")) {
            try SignallingHostLookup.address(host: "agent.example", port: 443, dialect: "openai-realtime-webrtc") { _, _ in ([], []) }
        }
    }
}
