import NIOCore
import NIOPosix
import Testing
import WSClient
import WSCore
import WSServer

@testable import VoiceLoad

@Suite("Connect stamps over loopback", .timeLimit(.minutes(1)))
struct ConnectStampsLoopbackTests {
    private func startListener(on group: EventLoopGroup) async throws -> WebSocketListener {
        try await WebSocketListener.start(port: 0, group: group, shouldUpgrade: { _ in .accept() }, onConnection: { _ in }).get()
    }

    @Test("an IP literal is connected to without a lookup; ws has no TLS stamp; the stamps are in order")
    func ipLiteral() async throws {
        try await withGroup { group in
            let listener = try await startListener(on: group)
            let startedAt = MonotonicInstant.now()
            let connection = try await WebSocketClient.connect(
                to: WebSocketEndpoint(parsing: "ws://127.0.0.1:\(listener.port)/"),
                on: group.next(),
                onEvent: { _ in }
            ).get()
            let stamps = connection.connectStamps
            #expect(stamps.resolvedAt == nil && stamps.tlsCompletedAt == nil)
            #expect(startedAt <= stamps.tcpConnectedAt && stamps.tcpConnectedAt <= stamps.openedAt)
            let phases = ConnectPhases(stamps: stamps, startedAt: startedAt)
            #expect(phases.dnsUs == 0 && phases.tlsUs == nil)
            connection.abort()
            try await listener.close().get()
        }
    }

    @Test("a host name goes through the timed lookup, stamped before TCP connects")
    func hostName() async throws {
        try await withGroup { group in
            let listener = try await startListener(on: group)
            let startedAt = MonotonicInstant.now()
            let connection = try await WebSocketClient.connect(
                to: WebSocketEndpoint(parsing: "ws://localhost:\(listener.port)/"),
                on: group.next(),
                onEvent: { _ in }
            ).get()
            let stamps = connection.connectStamps
            let resolvedAt = try #require(stamps.resolvedAt)
            #expect(startedAt <= resolvedAt && resolvedAt <= stamps.tcpConnectedAt && stamps.tcpConnectedAt <= stamps.openedAt)
            connection.abort()
            try await listener.close().get()
        }
    }

    @Test("the lookup answers localhost from one getaddrinfo, IPv6 and IPv4 apart, and notes when")
    func resolver() async throws {
        try await withGroup { group in
            let loop = group.next()
            let resolver = TimedResolver(loop: loop)
            let v6 = resolver.initiateAAAAQuery(host: "localhost", port: 80)
            let v4 = try await resolver.initiateAQuery(host: "localhost", port: 80).get()
            _ = try await v6.get()
            #expect(v4.contains { $0.ipAddress == "127.0.0.1" && $0.port == 80 })
            #expect(try await loop.submit { resolver.resolvedAt }.get() != nil)
        }
    }

    @Test("a closed port refuses both ways: direct to an IP literal, and after a lookup")
    func refused() async throws {
        try await withGroup { group in
            let listener = try await startListener(on: group)
            let port = listener.port
            try await listener.close().get()
            for host in ["127.0.0.1", "localhost"] {
                do {
                    _ = try await WebSocketClient.connect(
                        to: WebSocketEndpoint(parsing: "ws://\(host):\(port)/"),
                        on: group.next(),
                        onEvent: { _ in }
                    ).get()
                    Issue.record("\(host): connected to a closed port")
                } catch let error as WebSocketConnectError {
                    guard case .connectionRefused(let reason) = error else {
                        Issue.record("\(host): expected connectionRefused, got \(error)")
                        continue
                    }
                    #expect(reason.hasPrefix("\(host):\(port): "))
                }
            }
        }
    }
}
