import NIOCore
import NIOHTTP1
import NIOPosix
import WSCore

/// A small HTTP/1 server for Prometheus: `GET /metrics` answers with the exposition text of
/// the moment, every other path 404.
package final class MetricsServer: Sendable {
    /// The address the server is bound to.
    package let host: String
    /// The bound port (the one the system picked when started with port 0).
    package let port: Int

    private let channel: any Channel

    private init(channel: any Channel, host: String, port: Int) {
        self.channel = channel
        self.host = host
        self.port = port
    }

    /// Where Prometheus scrapes.
    package var url: String {
        "http://\(URLHost.bracketed(host)):\(port)/metrics"
    }

    /// Binds `host:port` (port 0 picks a free one) and starts serving `exposition()` at
    /// `/metrics`. Throws the bind error (address in use, no such address).
    package static func start(
        host: String,
        port: Int,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        exposition: @escaping @Sendable () -> [UInt8]
    ) async throws -> MetricsServer {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MetricsHTTPHandler(exposition: exposition))
                }
            }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        guard let boundPort = channel.localAddress?.port else {
            try? await channel.close()
            throw ChannelError.unknownLocalAddress
        }
        return MetricsServer(channel: channel, host: host, port: boundPort)
    }

    /// Stops accepting connections; scrapes under way finish.
    package func stop() async {
        try? await channel.close()
    }
}
