import NIOCore
import NIOPosix
import Testing
import WSClient

@testable import VoiceLoad

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Transport connect errors")
struct TransportConnectErrorTests {
    private struct LookupFailed: Error, CustomStringConvertible {
        var description: String { "no such host" }
    }

    @Test("every attempt refused: connectionRefused")
    func refused() {
        let refused = IOError(errnoCode: ECONNREFUSED, reason: "connect")
        let error = WebSocketClient.classifyConnectionFailure(host: "localhost", port: 9, attempts: [refused, refused], dnsError: nil)
        guard case .connectionRefused(let reason) = error else {
            Issue.record("expected connectionRefused, got \(error)")
            return
        }
        #expect(reason.hasPrefix("localhost:9: "))
    }

    @Test("no address to try: dnsFailed, naming the lookup's error")
    func dns() {
        let error = WebSocketClient.classifyConnectionFailure(host: "nowhere.invalid", port: 443, attempts: [], dnsError: LookupFailed())
        #expect(error == .dnsFailed("nowhere.invalid:443: no such host"))
        #expect(error.description == "DNS lookup failed: nowhere.invalid:443: no such host")
    }

    @Test("any other failure, or a mix with a refusal: connectFailed")
    func other() {
        let unreachable = IOError(errnoCode: EHOSTUNREACH, reason: "connect")
        let refused = IOError(errnoCode: ECONNREFUSED, reason: "connect")
        for attempts in [[unreachable], [refused, unreachable]] {
            let error = WebSocketClient.classifyConnectionFailure(host: "10.0.0.1", port: 80, attempts: attempts, dnsError: nil)
            guard case .connectFailed = error else {
                Issue.record("expected connectFailed, got \(error)")
                continue
            }
        }
    }

    @Test("a connect timeout and handshake-time errors keep their classes")
    func timeoutsAndHandshake() {
        #expect(WebSocketClient.classifyConnectError(ChannelError.connectTimeout(.seconds(1))) == .timedOut)
        guard case .connectFailed = WebSocketClient.classifyConnectError(IOError(errnoCode: ECONNRESET, reason: "read")) else {
            Issue.record("a reset before the upgrade is connectFailed")
            return
        }
    }
}
