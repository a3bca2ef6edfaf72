import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS
import NIOWebSocket
import WSCore

/// Runs the client's opening handshake on the channel, then swaps the HTTP handlers for the
/// WebSocket ones.
///
/// Sits after `HTTPRequestEncoder` and `HTTPResponseDecoder`. Sends the upgrade request when
/// the channel becomes active; on a valid 101 it installs the frame encoder, decoder and
/// `WebSocketFrameHandler`, removes the HTTP handlers and itself, and succeeds the promise.
/// A refused upgrade fails the promise with the status and the first 2 KiB of the body.
///
/// It also stamps the opening's steps for the connect phases (`ConnectStamps`): TCP connected
/// (`channelActive`), TLS done (NIOSSL's `handshakeCompleted`, which reaches it from the TLS
/// handler before it) and the 101; the lookup's end comes from the connection's resolver.
package final class WebSocketClientHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPClientResponsePart
    package typealias OutboundOut = HTTPClientRequestPart

    /// The most body bytes of a refused upgrade kept for the error.
    package static let maxRejectionBodyBytes = 2048

    private enum State {
        case idle
        case awaitingResponse
        case awaitingEndOfUpgrade(subprotocol: String?, openedAt: MonotonicInstant)
        /// Waiting for the HTTP decoder to leave; bytes after the 101 are held here meanwhile.
        case removingHTTPHandlers(subprotocol: String?, openedAt: MonotonicInstant, held: [NIOAny])
        case collectingRejection(status: Int, body: ByteBuffer)
        case upgraded
        case failed
    }

    private let handshake: WebSocketClientHandshake
    private let promise: EventLoopPromise<WebSocketConnection>
    private let deadline: NIODeadline
    private let maxFrameBytes: Int
    private let onEvent: @Sendable (WebSocketConnectionEvent) -> Void
    private let requestEncoder: HTTPRequestEncoder
    private let responseDecoder: ByteToMessageHandler<HTTPResponseDecoder>
    /// The connection's name lookup; nil for an IP-literal host.
    private let resolver: TimedResolver?
    private var state = State.idle
    private var tcpConnectedAt: MonotonicInstant?
    private var tlsCompletedAt: MonotonicInstant?
    private var timeout: Scheduled<Void>?

    package init(
        handshake: WebSocketClientHandshake,
        promise: EventLoopPromise<WebSocketConnection>,
        deadline: NIODeadline,
        maxFrameBytes: Int,
        onEvent: @escaping @Sendable (WebSocketConnectionEvent) -> Void,
        requestEncoder: HTTPRequestEncoder,
        responseDecoder: ByteToMessageHandler<HTTPResponseDecoder>,
        resolver: TimedResolver? = nil
    ) {
        self.resolver = resolver
        self.handshake = handshake
        self.promise = promise
        self.deadline = deadline
        self.maxFrameBytes = maxFrameBytes
        self.onEvent = onEvent
        self.requestEncoder = requestEncoder
        self.responseDecoder = responseDecoder
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        timeout = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] () -> Void in
            self?.fail(.timedOut, context: context)
        }
        if context.channel.isActive {
            tcpConnectedAt = MonotonicInstant.now()
            sendRequest(context: context)
        }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        timeout?.cancel()
        timeout = nil
    }

    package func channelActive(context: ChannelHandlerContext) {
        tcpConnectedAt = MonotonicInstant.now()
        sendRequest(context: context)
        context.fireChannelActive()
    }

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tls = event as? TLSUserEvent, case .handshakeCompleted = tls, tlsCompletedAt == nil {
            tlsCompletedAt = MonotonicInstant.now()
        }
        context.fireUserInboundEventTriggered(event)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .upgraded:
            context.fireChannelRead(data)
        case .removingHTTPHandlers(let subprotocol, let openedAt, var held):
            state = .idle  // keep `held` uniquely referenced while appending
            held.append(data)
            state = .removingHTTPHandlers(subprotocol: subprotocol, openedAt: openedAt, held: held)
        case .awaitingResponse:
            guard case .head(let head) = Self.unwrapInboundIn(data) else {
                return fail(.invalidUpgradeResponse("response body before a response head"), context: context)
            }
            switch handshake.evaluate(head) {
            case .accepted(let subprotocol):
                state = .awaitingEndOfUpgrade(subprotocol: subprotocol, openedAt: MonotonicInstant.now())
            case .rejected(let status):
                state = .collectingRejection(status: status, body: context.channel.allocator.buffer(capacity: 0))
            case .invalid(let reason):
                fail(.invalidUpgradeResponse(reason), context: context)
            }
        case .awaitingEndOfUpgrade(let subprotocol, let openedAt):
            if case .end = Self.unwrapInboundIn(data) {
                upgrade(subprotocol: subprotocol, openedAt: openedAt, context: context)
            }
        case .collectingRejection(let status, var body):
            switch Self.unwrapInboundIn(data) {
            case .head:
                break
            case .body(var chunk):
                let room = Self.maxRejectionBodyBytes - body.readableBytes
                if let slice = chunk.readSlice(length: min(room, chunk.readableBytes)) {
                    var slice = slice
                    body.writeBuffer(&slice)
                }
                state = .collectingRejection(status: status, body: body)
                if body.readableBytes >= Self.maxRejectionBodyBytes {
                    fail(.upgradeRejected(status: status, body: String(buffer: body)), context: context)
                }
            case .end:
                fail(.upgradeRejected(status: status, body: String(buffer: body)), context: context)
            }
        case .idle, .failed:
            break
        }
    }

    package func channelInactive(context: ChannelHandlerContext) {
        switch state {
        case .collectingRejection(let status, let body):
            fail(.upgradeRejected(status: status, body: String(buffer: body)), context: context)
        case .idle, .awaitingResponse, .awaitingEndOfUpgrade, .removingHTTPHandlers:
            fail(.connectFailed("connection closed by the server before the upgrade completed"), context: context)
        case .upgraded, .failed:
            break
        }
        context.fireChannelInactive()
    }

    package func errorCaught(context: ChannelHandlerContext, error: Error) {
        switch state {
        case .upgraded:
            context.fireErrorCaught(error)
        case .failed:
            break
        case .idle, .awaitingResponse, .awaitingEndOfUpgrade, .removingHTTPHandlers, .collectingRejection:
            fail(Self.classify(error, host: handshake.endpoint.host), context: context)
        }
    }

    /// Maps an error seen before the upgrade completed to the public error; `host` is named in
    /// a host-name mismatch.
    package static func classify(_ error: Error, host: String? = nil) -> WebSocketConnectError {
        if let failure = TLSFailure(error, host: host) { return failure.connectError }
        switch error {
        case is HTTPParserError:
            return .invalidUpgradeResponse("malformed HTTP response: \(error)")
        default:
            return .connectFailed("\(error)")
        }
    }

    private func sendRequest(context: ChannelHandlerContext) {
        guard case .idle = state else { return }
        state = .awaitingResponse
        context.write(Self.wrapOutboundOut(.head(handshake.requestHead())), promise: nil)
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// First step of the switch: drop the HTTP handlers. The response decoder observes writes
    /// and leaves only on the next loop tick, handing over any bytes that followed the 101, so
    /// nothing may be written until it is gone.
    private func upgrade(subprotocol: String?, openedAt: MonotonicInstant, context: ChannelHandlerContext) {
        timeout?.cancel()
        timeout = nil
        state = .removingHTTPHandlers(subprotocol: subprotocol, openedAt: openedAt, held: [])
        let pipeline = context.pipeline.syncOperations
        _ = pipeline.removeHandler(requestEncoder)
        pipeline.removeHandler(responseDecoder).assumeIsolated().whenComplete { _ in
            self.installWebSocketHandlers(context: context)
        }
    }

    /// Second step: install the WebSocket handlers, hand over the connection, replay held bytes.
    private func installWebSocketHandlers(context: ChannelHandlerContext) {
        guard case .removingHTTPHandlers(let subprotocol, let openedAt, let held) = state else { return }
        let pipeline = context.pipeline.syncOperations
        let frameHandler = WebSocketFrameHandler(role: .client, maxMessageBytes: maxFrameBytes, onEvent: onEvent)
        do {
            try pipeline.addHandlers(
                [
                    ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameBytes)),
                    frameHandler,
                ],
                position: .after(self)
            )
        } catch {
            return fail(.invalidUpgradeResponse("could not install the WebSocket handlers: \(error)"), context: context)
        }
        state = .upgraded
        let stamps = ConnectStamps(
            resolvedAt: resolver?.resolvedAt,
            tcpConnectedAt: tcpConnectedAt ?? openedAt,
            tlsCompletedAt: tlsCompletedAt,
            openedAt: openedAt
        )
        promise.succeed(
            WebSocketConnection(
                channel: context.channel,
                handler: FrameHandlerReference(frameHandler, eventLoop: context.eventLoop),
                connectStamps: stamps,
                subprotocol: subprotocol
            )
        )
        for data in held {
            context.fireChannelRead(data)
        }
        if !held.isEmpty {
            context.fireChannelReadComplete()
        }
        pipeline.removeHandler(context: context, promise: nil)
    }

    private func fail(_ error: WebSocketConnectError, context: ChannelHandlerContext) {
        switch state {
        case .upgraded, .failed:
            return
        case .idle, .awaitingResponse, .awaitingEndOfUpgrade, .removingHTTPHandlers, .collectingRejection:
            state = .failed
            timeout?.cancel()
            timeout = nil
            promise.fail(error)
            context.close(promise: nil)
        }
    }
}
