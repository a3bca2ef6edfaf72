import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import VoiceLoad

@Suite("Metrics server")
struct MetricsServerTests {
    /// Sends `request` raw over TCP to 127.0.0.1:`port` and returns everything read until the
    /// server closes the connection.
    private func exchange(_ request: String, port: Int) async throws -> String {
        let collector = ResponseCollector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(channel.allocator.buffer(string: request)).get()
        try await channel.closeFuture.get()
        return collector.text
    }

    private func get(_ path: String, port: Int) async throws -> String {
        try await exchange("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
    }

    @Test("GET /metrics on an ephemeral port answers 200 with the exposition text; other paths 404")
    func scrape() async throws {
        let metrics = PrometheusLiveMetrics()
        metrics.update(LiveFigures(elapsedMs: 3_000, activeSessions: 7, sessionsStarted: 9, turnsCompleted: 4))
        let server = try await MetricsServer.start(host: "127.0.0.1", port: 0) { metrics.exposition() }
        #expect(server.port > 0)
        #expect(server.url == "http://127.0.0.1:\(server.port)/metrics")

        let response = try await get("/metrics", port: server.port)
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.lowercased().contains("content-type: text/plain; version=0.0.4; charset=utf-8\r\n"))
        let body = response.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        #expect(body.contains("vload_active_sessions 7.0\n"))
        #expect(body.contains("vload_sessions_started_total 9\n"))
        #expect(body.contains("vload_turns_completed_total 4\n"))

        metrics.update(LiveFigures(elapsedMs: 4_000, activeSessions: 2, sessionsStarted: 9, turnsCompleted: 6))
        let later = try await get("/metrics?x=1", port: server.port)
        #expect(later.contains("vload_turns_completed_total 6\n"))

        let missing = try await get("/", port: server.port)
        #expect(missing.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        let post = try await exchange(
            "POST /metrics HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            port: server.port
        )
        #expect(post.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
        await server.stop()
    }

    @Test("a port already in use is an error at start")
    func portInUse() async throws {
        let first = try await MetricsServer.start(host: "127.0.0.1", port: 0) { [] }
        await #expect(throws: (any Error).self) {
            _ = try await MetricsServer.start(host: "127.0.0.1", port: first.port) { [] }
        }
        await first.stop()
    }
}

/// Gathers the bytes a connection receives.
private final class ResponseCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let received = Mutex("")

    var text: String { received.withLock { $0 } }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = Self.unwrapInboundIn(data)
        received.withLock { $0 += String(buffer: buffer) }
    }
}
