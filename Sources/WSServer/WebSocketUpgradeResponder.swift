import NIOCore
import NIOHTTP1
import NIOWebSocket

/// What a listener decided about one connection's upgrade request, kept on the channel's loop
/// between `shouldUpgrade` and the pipeline switch (or the refusal).
package struct ServerUpgradeRecord {
    package var request: WebSocketUpgradeRequest
    package var decision: WebSocketUpgradeDecision
}

/// Answers the HTTP requests a `WebSocketListener` does not upgrade, then closes.
///
/// NIO's server upgrade handler passes a refused request on down the pipeline; this handler,
/// placed after it, writes the refusal: the status and body the listener's `shouldUpgrade`
/// chose, 400 for a malformed WebSocket request, 426 for a plain HTTP request.
package final class WebSocketUpgradeResponder: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias OutboundOut = HTTPServerResponsePart

    package static let name = "vload.websocket-upgrade-responder"

    private let record: NIOLoopBoundBox<ServerUpgradeRecord?>
    private let plainHTTP: PlainHTTPHandler?
    private var invalidUpgradeRequest = false
    private var responded = false
    private var requestHead: HTTPRequestHead?
    private var requestBody: [UInt8] = []

    package init(record: NIOLoopBoundBox<ServerUpgradeRecord?>, plainHTTP: PlainHTTPHandler? = nil) {
        self.record = record
        self.plainHTTP = plainHTTP
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            requestHead = head
            return
        case .body(let buffer):
            if requestBody.count < 1 << 20 { requestBody += buffer.readableBytesView }
            return
        case .end:
            guard !responded else { return }
        }
        responded = true
        answer(on: context.eventLoop, localHost: context.channel.localAddress?.ipAddress).hop(to: context.eventLoop).assumeIsolated().whenSuccess { answer in
            self.respond(answer, context: context)
        }
    }

    private func respond(_ answer: (status: Int, contentType: String, body: [UInt8]), context: ChannelHandlerContext) {
        let (status, contentType, bodyBytes) = answer
        let buffer = context.channel.allocator.buffer(bytes: bodyBytes)
        var head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status))
        head.headers.add(name: "Content-Type", value: contentType)
        head.headers.add(name: "Content-Length", value: String(buffer.readableBytes))
        head.headers.add(name: "Connection", value: "close")
        context.write(Self.wrapOutboundOut(.head(head)), promise: nil)
        context.write(Self.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil)))
            .assumeIsolated()
            .whenComplete { _ in context.close(promise: nil) }
    }

    package func errorCaught(context: ChannelHandlerContext, error: Error) {
        switch error as? NIOWebSocketUpgradeError {
        case .invalidUpgradeHeader?:
            invalidUpgradeRequest = true  // the request follows; answer it with 400
        case .unsupportedWebSocketTarget?:
            break  // our own shouldUpgrade refused; the request follows
        default:
            context.close(promise: nil)
        }
    }

    /// A plain request the listener's HTTP handler answers, or the refusal.
    private func answer(on eventLoop: any EventLoop, localHost: String?) -> EventLoopFuture<(status: Int, contentType: String, body: [UInt8])> {
        if record.value == nil, !invalidUpgradeRequest, let plainHTTP, let head = requestHead {
            let request = PlainHTTPRequest(
                method: head.method.rawValue,
                target: head.uri,
                headers: head.headers.map { (name: $0.name, value: $0.value) },
                body: requestBody,
                localHost: localHost
            )
            if let response = plainHTTP(request, eventLoop) { return response.map { ($0.status, $0.contentType, $0.body) } }
        }
        let (status, contentType, body) = refusal()
        return eventLoop.makeSucceededFuture((status, contentType, Array(body.utf8)))
    }

    private func refusal() -> (status: Int, contentType: String, body: String) {
        if case .reject(let status, let body, let contentType)? = record.value?.decision {
            return (status, contentType, body)
        }
        let plainText = "text/plain; charset=utf-8"
        if invalidUpgradeRequest {
            return (400, plainText, "invalid WebSocket upgrade request")
        }
        return (426, plainText, "this endpoint only accepts WebSocket upgrades")
    }
}
