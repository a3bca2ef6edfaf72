import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One HTTP/1.1 request over raw SwiftNIO on a given event loop: the REST pre-step some
/// dialects take before their WebSocket (docs/dialects.md).
package enum HTTPRequestClient {
    package struct Response: Sendable {
        package var status: Int
        package var body: [UInt8]
    }

    /// Sends `method target` with `headers` and `body`, and returns the whole response.
    /// Fails with `WebSocketConnectError` cases for connect, TLS and timeout failures, the same
    /// classes the WebSocket connect reports. `tlsConfiguration` as for `WebSocketClient.connect`.
    package static func send(
        method: HTTPMethod,
        to endpoint: HTTPEndpoint,
        headers: [(String, String)],
        body: [UInt8],
        on eventLoop: any EventLoop,
        tlsConfiguration: TLSConfiguration? = nil,
        timeoutMs: Int64 = 10_000,
        maxResponseBytes: Int = 1 << 20
    ) -> EventLoopFuture<Response> {
        let promise = eventLoop.makePromise(of: Response.self)
        let sslContext: NIOSSLContext?
        do {
            sslContext = endpoint.isSecure ? try ClientTLSContexts.context(for: tlsConfiguration) : nil
        } catch {
            promise.fail(WebSocketConnectError.tlsFailed("\(error)"))
            return promise.futureResult
        }
        let timeout = TimeAmount.milliseconds(max(timeoutMs, 1))
        let timer = eventLoop.scheduleTask(in: timeout) { promise.fail(WebSocketConnectError.timedOut) }
        promise.futureResult.whenComplete { _ in timer.cancel() }
        let serverHostname = WebSocketClient.isIPAddress(endpoint.host) ? nil : endpoint.host
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let sslContext {
                        try pipeline.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: serverHostname))
                    }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandlers([
                        NIOHTTPClientResponseAggregator(maxContentLength: maxResponseBytes),
                        ResponseCollector(promise: promise, host: endpoint.host),
                    ])
                }
            }
        bootstrap.connect(host: endpoint.host, port: endpoint.port).whenComplete { result in
            switch result {
            case .failure(let error):
                promise.fail(WebSocketClient.classifyConnectError(error))
            case .success(let channel):
                var head = HTTPRequestHead(version: .http1_1, method: method, uri: endpoint.requestTarget)
                head.headers.add(name: "Host", value: endpoint.hostHeader)
                head.headers.add(name: "Content-Length", value: String(body.count))
                head.headers.add(name: "Connection", value: "close")
                for (name, value) in headers { head.headers.add(name: name, value: value) }
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
            }
        }
        return promise.futureResult
    }
}

/// Completes the request's promise with the aggregated response, or its failure.
private final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = NIOHTTPClientResponseFull

    private let promise: EventLoopPromise<HTTPRequestClient.Response>
    /// The host requested, named in a TLS host-name mismatch.
    private let host: String

    init(promise: EventLoopPromise<HTTPRequestClient.Response>, host: String) {
        self.promise = promise
        self.host = host
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let response = Self.unwrapInboundIn(data)
        let body = response.body.map { Array($0.readableBytesView) } ?? []
        promise.succeed(HTTPRequestClient.Response(status: Int(response.head.status.code), body: body))
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        promise.fail(TLSFailure(error, host: host)?.connectError ?? WebSocketConnectError.connectFailed("\(error)"))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(WebSocketConnectError.connectFailed("connection closed before a response"))
    }
}
