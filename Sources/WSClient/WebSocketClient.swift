import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import WSCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens client WebSocket connections over raw SwiftNIO: one TCP (or TLS) connection each,
/// on an event loop the caller picks.
package enum WebSocketClient {
    /// Connects to `endpoint` on `eventLoop` and performs the WebSocket upgrade.
    ///
    /// - Parameters:
    ///   - endpoint: the ws:// or wss:// URL.
    ///   - headers: extra headers for the upgrade request (e.g. `Authorization`).
    ///   - subprotocols: values for `Sec-WebSocket-Protocol`, in preference order.
    ///   - eventLoop: the loop the connection lives on; `onEvent` runs there.
    ///   - tlsConfiguration: TLS settings for wss; nil uses the default client configuration
    ///     (system trust roots, full verification). Ignored for ws. Its context is built on
    ///     first use and shared (`ClientTLSContexts`).
    ///   - connectTimeoutMs: the limit for TCP connect, TLS and upgrade together.
    ///   - maxFrameBytes: the largest inbound frame, and reassembled message, accepted.
    ///   - onEvent: receives the connection's events, synchronously on `eventLoop`, from inside
    ///     the channel handler. It may be called before the returned future completes when the
    ///     server sends frames right behind its 101.
    /// - Returns: a future that succeeds once the server's 101 has been validated, or fails with
    ///   a `WebSocketConnectError`. The connection's `connectStamps` time the lookup (a host
    ///   name goes to a `TimedResolver`, with NIO's Happy Eyeballs; an IP literal is connected
    ///   to directly, no lookup), TCP, TLS and the upgrade.
    package static func connect(
        to endpoint: WebSocketEndpoint,
        headers: [(String, String)] = [],
        subprotocols: [String] = [],
        on eventLoop: EventLoop,
        tlsConfiguration: TLSConfiguration? = nil,
        connectTimeoutMs: Int64 = 10_000,
        maxFrameBytes: Int = 16 << 20,
        onEvent: @escaping @Sendable (WebSocketConnectionEvent) -> Void
    ) -> EventLoopFuture<WebSocketConnection> {
        let promise = eventLoop.makePromise(of: WebSocketConnection.self)
        let sslContext: NIOSSLContext?
        do {
            sslContext = endpoint.isSecure ? try ClientTLSContexts.context(for: tlsConfiguration) : nil
        } catch {
            promise.fail(WebSocketConnectError.tlsFailed("\(error)"))
            return promise.futureResult
        }
        let frameLimit = min(max(maxFrameBytes, 125), Int(UInt32.max))
        let timeout = TimeAmount.milliseconds(max(connectTimeoutMs, 1))
        let deadline = NIODeadline.now() + timeout
        let handshake = WebSocketClientHandshake(endpoint: endpoint, headers: headers, subprotocols: subprotocols)
        let isIPAddress = Self.isIPAddress(endpoint.host)
        let serverHostname = isIPAddress ? nil : endpoint.host
        let resolver = isIPAddress ? nil : TimedResolver(loop: eventLoop)

        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(.recvAllocator, value: Self.receiveBuffers)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let sslContext {
                        try pipeline.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: serverHostname))
                    }
                    let requestEncoder = HTTPRequestEncoder()
                    let responseDecoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
                    let handshakeHandler = WebSocketClientHandshakeHandler(
                        handshake: handshake,
                        promise: promise,
                        deadline: deadline,
                        maxFrameBytes: frameLimit,
                        onEvent: onEvent,
                        requestEncoder: requestEncoder,
                        responseDecoder: responseDecoder,
                        resolver: resolver
                    )
                    try pipeline.addHandlers([requestEncoder, responseDecoder, handshakeHandler])
                }
            }
        let channel: EventLoopFuture<Channel>
        if let resolver {
            channel = bootstrap.resolver(resolver).connect(host: endpoint.host, port: endpoint.port)
        } else {
            do {
                channel = bootstrap.connect(to: try SocketAddress(ipAddress: endpoint.host, port: endpoint.port))
            } catch {
                promise.fail(WebSocketConnectError.connectFailed("\(endpoint.host):\(endpoint.port): \(error)"))
                return promise.futureResult
            }
        }
        channel.whenFailure { error in
            promise.fail(Self.classifyConnectError(error, host: endpoint.host, port: endpoint.port))
        }
        return promise.futureResult
    }

    /// Maps a bootstrap failure (before any handler ran) to the public error. `host` and `port`
    /// name the target of a direct connect (an IP literal), whose failure is a bare `IOError`.
    package static func classifyConnectError(_ error: Error, host: String? = nil, port: Int? = nil) -> WebSocketConnectError {
        switch error {
        case ChannelError.connectTimeout:
            return .timedOut
        case let error as IOError where host != nil:
            return classifyConnectionFailure(host: host ?? "", port: port ?? 0, attempts: [error], dnsError: nil)
        case let error as NIOConnectionError:
            return classifyConnectionFailure(
                host: error.host,
                port: error.port,
                attempts: error.connectionErrors.map(\.error),
                dnsError: error.dnsAError ?? error.dnsAAAAError
            )
        default:
            return WebSocketClientHandshakeHandler.classify(error)
        }
    }

    /// Refused (every address tried answered `ECONNREFUSED`), DNS (no address to try), or any
    /// other connect failure, from the parts of a `NIOConnectionError` (which only NIO can build):
    /// the error of each connection attempt, and of the DNS lookup.
    package static func classifyConnectionFailure(
        host: String,
        port: Int,
        attempts: [any Error],
        dnsError: (any Error)?
    ) -> WebSocketConnectError {
        guard let first = attempts.first else {
            return .dnsFailed("\(host):\(port)\(dnsError.map { ": \($0)" } ?? "")")
        }
        let refused = attempts.allSatisfy { ($0 as? IOError)?.errnoCode == ECONNREFUSED }
        return refused ? .connectionRefused("\(host):\(port): \(first)") : .connectFailed("\(host):\(port): \(first)")
    }

    /// The size of the buffer each read fills: NIO's adaptive sizing (larger after a read that
    /// filled the buffer, smaller after reads that left most of it empty), capped at 4 KB instead
    /// of NIO's 64 KB. Each connection keeps its buffer between reads, and under load, when
    /// replies queue in the socket, the buffers grew to 12 KB a session on average (massif,
    /// BENCHMARKS.md, "Memory per session"); a voice agent's messages are a few kilobytes, and a
    /// larger burst takes one more read.
    static let receiveBuffers = AdaptiveRecvByteBufferAllocator(minimum: 512, initial: 2_048, maximum: 4_096)

    /// Whether a host is an IPv4 or IPv6 literal (such hosts get no SNI).
    package static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
