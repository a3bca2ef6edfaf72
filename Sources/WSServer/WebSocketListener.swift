import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import WSCore

/// A WebSocket server over raw SwiftNIO, for the agent simulator and tests.
///
/// Each upgrade request goes to `shouldUpgrade`; an accepted one becomes a
/// `WebSocketServerConnection` handed to `onConnection` synchronously on the connection's event
/// loop, before any of its frames is read. The same `WebSocketFrameHandler` as the client's
/// stamps frames, answers pings, reassembles fragments and captures closes.
package final class WebSocketListener: Sendable {
    /// The address the listener is bound to.
    package let host: String
    /// The bound port (the one the system picked when started with port 0).
    package let port: Int

    private let channel: Channel

    private init(channel: Channel, host: String, port: Int) {
        self.channel = channel
        self.host = host
        self.port = port
    }

    /// Binds a listener and starts accepting connections.
    ///
    /// - Parameters:
    ///   - host: the address to bind.
    ///   - port: the port; 0 picks a free one (read it back from `port`).
    ///   - group: the event loops that serve connections.
    ///   - maxFrameBytes: the largest inbound frame, and reassembled message, accepted.
    ///   - shouldUpgrade: decides on each upgrade request, on the connection's event loop.
    ///   - onConnection: receives each accepted connection, on its event loop, before any frame
    ///     is read; install the event handler there.
    ///   - plainHTTP: answers plain (not upgraded) HTTP requests, for REST endpoints beside the
    ///     WebSocket; nil, or a nil answer, gives 426.
    ///   - tls: serve TLS (wss://, https://) with this certificate; nil for plain TCP.
    package static func start(
        host: String = "127.0.0.1",
        port: Int,
        group: EventLoopGroup,
        maxFrameBytes: Int = 16 << 20,
        shouldUpgrade: @escaping @Sendable (WebSocketUpgradeRequest) -> WebSocketUpgradeDecision,
        onConnection: @escaping @Sendable (WebSocketServerConnection) -> Void,
        plainHTTP: PlainHTTPHandler? = nil,
        tls: ServerTLS? = nil
    ) -> EventLoopFuture<WebSocketListener> {
        let frameLimit = min(max(maxFrameBytes, 125), Int(UInt32.max))
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls.context))
                    }
                    try Self.configure(
                        channel: channel,
                        frameLimit: frameLimit,
                        shouldUpgrade: shouldUpgrade,
                        onConnection: onConnection,
                        plainHTTP: plainHTTP
                    )
                }
            }
        return bootstrap.bind(host: host, port: port).flatMapThrowing { channel in
            guard let boundPort = channel.localAddress?.port else {
                throw ChannelError.unknownLocalAddress
            }
            return WebSocketListener(channel: channel, host: host, port: boundPort)
        }
    }

    /// Stops accepting connections. Connections already open stay open until they close or
    /// their event loop group shuts down.
    package func close() -> EventLoopFuture<Void> {
        channel.close()
    }

    /// Builds one accepted channel's HTTP pipeline with the WebSocket upgrader.
    private static func configure(
        channel: Channel,
        frameLimit: Int,
        shouldUpgrade: @escaping @Sendable (WebSocketUpgradeRequest) -> WebSocketUpgradeDecision,
        onConnection: @escaping @Sendable (WebSocketServerConnection) -> Void,
        plainHTTP: PlainHTTPHandler?
    ) throws {
        let record = NIOLoopBoundBox<ServerUpgradeRecord?>(nil, eventLoop: channel.eventLoop)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: frameLimit,
            automaticErrorHandling: false,
            shouldUpgrade: { channel, head in
                let request = WebSocketUpgradeRequest(
                    target: head.uri,
                    headers: head.headers.map { (name: $0.name, value: $0.value) }
                )
                let decision = shouldUpgrade(request)
                record.value = ServerUpgradeRecord(request: request, decision: decision)
                switch decision {
                case .accept(let subprotocol, let headers, _):
                    var fields = HTTPHeaders()
                    if let subprotocol {
                        fields.add(name: "Sec-WebSocket-Protocol", value: subprotocol)
                    }
                    for (name, value) in headers {
                        fields.add(name: name, value: value)
                    }
                    return channel.eventLoop.makeSucceededFuture(fields)
                case .reject:
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    _ = pipeline.removeHandler(name: WebSocketUpgradeResponder.name)
                    let frameHandler = WebSocketFrameHandler(role: .server, maxMessageBytes: frameLimit, onEvent: nil)
                    try pipeline.addHandler(frameHandler)
                    let request =
                        record.value?.request
                        ?? WebSocketUpgradeRequest(target: head.uri, headers: head.headers.map { ($0.name, $0.value) })
                    var subprotocol: String?
                    var tag: UInt64?
                    if case .accept(let chosen, _, let given)? = record.value?.decision {
                        subprotocol = chosen
                        tag = given
                    }
                    record.value = nil
                    onConnection(
                        WebSocketServerConnection(
                            channel: channel,
                            handler: FrameHandlerReference(frameHandler, eventLoop: channel.eventLoop),
                            request: request,
                            subprotocol: subprotocol,
                            tag: tag
                        )
                    )
                }
            }
        )
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withPipeliningAssistance: false,
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }),
            withErrorHandling: true
        )
        try channel.pipeline.syncOperations.addHandler(
            WebSocketUpgradeResponder(record: record, plainHTTP: plainHTTP),
            name: WebSocketUpgradeResponder.name
        )
    }
}
