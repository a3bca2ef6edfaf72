import NIOCore
import NIOHTTP1

/// Answers one HTTP/1 connection of the metrics endpoint: `GET /metrics` (or `HEAD`) with the
/// exposition text, 404 for any other path, 405 for any other method on `/metrics`. Keeps the
/// connection open when the client asks to.
final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let exposition: @Sendable () -> [UInt8]
    private var head: HTTPRequestHead?

    init(exposition: @escaping @Sendable () -> [UInt8]) {
        self.exposition = exposition
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
        case .body:
            break
        case .end:
            guard let request = head else { return }
            head = nil
            respond(to: request, context: context)
        }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let (status, contentType, body) = Self.answer(method: request.method, path: path, exposition: exposition)
        var responseHead = HTTPResponseHead(version: request.version, status: status)
        responseHead.headers.add(name: "Content-Type", value: contentType)
        responseHead.headers.add(name: "Content-Length", value: String(body.count))
        let keepAlive = request.isKeepAlive
        responseHead.headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(Self.wrapOutboundOut(.head(responseHead)), promise: nil)
        if request.method != .HEAD {
            context.write(Self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let written = context.writeAndFlush(Self.wrapOutboundOut(.end(nil)))
        if !keepAlive {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    /// The status, content type and body for a request.
    static func answer(
        method: HTTPMethod,
        path: String,
        exposition: () -> [UInt8]
    ) -> (HTTPResponseStatus, String, [UInt8]) {
        guard path == "/metrics" else { return (.notFound, "text/plain; charset=utf-8", Array("not found; try /metrics\n".utf8)) }
        guard method == .GET || method == .HEAD else {
            return (.methodNotAllowed, "text/plain; charset=utf-8", Array("only GET /metrics\n".utf8))
        }
        return (.ok, PrometheusLiveMetrics.contentType, exposition())
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
