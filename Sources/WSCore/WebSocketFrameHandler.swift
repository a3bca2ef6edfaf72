import NIOCore
import NIOSSL
import NIOWebSocket

/// The channel handler that sits right after the WebSocket frame decoder, on both the client
/// and the server side.
///
/// `channelRead` first reads the clock, so every message is stamped when it came off the
/// socket, before any decoding. It reassembles fragments, answers pings, runs the close
/// handshake, and reports everything through one event closure, synchronously on the loop.
/// Until that closure is installed (server side), events are buffered in order.
package final class WebSocketFrameHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = WebSocketFrame
    package typealias OutboundOut = WebSocketFrame

    /// Which end of the connection this is: a client masks every frame it sends.
    package enum Role: Sendable {
        case client
        case server
    }

    private enum CloseState {
        /// Messages flow both ways.
        case open
        /// We sent a close frame and wait for the peer's (or the timer).
        case closeSent(timer: Scheduled<Void>?)
        /// The channel is being closed; nothing more is sent.
        case closing
    }

    /// How long `close(code:reason:)` waits for the peer's close frame before dropping TCP.
    package static let closeReplyTimeout = TimeAmount.seconds(2)

    private let role: Role
    private var assembler: WebSocketMessageAssembler
    private var onEvent: (@Sendable (WebSocketConnectionEvent) -> Void)?
    private var pendingEvents: [WebSocketConnectionEvent] = []
    private var context: ChannelHandlerContext?
    private var closeState = CloseState.open
    private var closedReported = false
    /// Masking keys (client side, RFC 6455 §5.3: a fresh unpredictable key per frame): a fast
    /// generator seeded from the system's once per connection, since a `getrandom` call per
    /// frame showed in profiles.
    private var maskingKeys = SeededGenerator(seed: .random(in: .min ... .max))

    /// - Parameters:
    ///   - role: client (masks outbound frames) or server.
    ///   - maxMessageBytes: the largest reassembled message accepted.
    ///   - onEvent: the event closure, or nil to buffer events until `setEventHandler`.
    package init(role: Role, maxMessageBytes: Int, onEvent: (@Sendable (WebSocketConnectionEvent) -> Void)?) {
        self.role = role
        self.assembler = WebSocketMessageAssembler(maxMessageBytes: maxMessageBytes)
        self.onEvent = onEvent
    }

    /// Whether data can still be sent: no close frame sent or received, channel not closed.
    package var isOpen: Bool {
        guard case .open = closeState, let context else { return false }
        return context.channel.isActive
    }

    /// Installs the event closure and delivers any events buffered until now.
    /// After `.closed` the closure is released, so a closure that captures its connection
    /// does not keep the connection alive.
    package func setEventHandler(_ handler: @escaping @Sendable (WebSocketConnectionEvent) -> Void) {
        let buffered = pendingEvents
        pendingEvents = []
        for event in buffered {
            handler(event)
        }
        onEvent = closedReported ? nil : handler
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        cancelCloseTimer()
        self.context = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let receivedAt = MonotonicInstant.now()
        let frame = Self.unwrapInboundIn(data)
        guard !closedReported else { return }
        switch assembler.receive(frame, at: receivedAt) {
        case .none:
            break
        case .deliver(let message):
            emit(.frame(message))
        case .sendPong(let payload):
            guard case .open = closeState else { return }
            write(opcode: .pong, payload: payload, context: context)
        case .peerClosed(let code, let reason):
            emit(.closed(code: code, reason: reason, at: receivedAt))
            closedReported = true
            peerClosed(code: code, context: context)
        case .violation(let closeCode, let message):
            // 1009 is RFC 6455's "message too big": the assembler's size limit.
            fail(WebSocketFailure(closeCode == 1009 ? .frameTooLarge : .protocolViolation, message), closeCode: closeCode, context: context)
        }
    }

    package func channelInactive(context: ChannelHandlerContext) {
        cancelCloseTimer()
        closeState = .closing
        reportClosedWithoutCode()
        context.fireChannelInactive()
    }

    package func errorCaught(context: ChannelHandlerContext, error: Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength:
            let message = "frame larger than the \(assembler.maxMessageBytes)-byte limit"
            fail(WebSocketFailure(.frameTooLarge, message), closeCode: 1009, context: context)
        case let error as NIOWebSocketError:
            fail(WebSocketFailure(.protocolViolation, "WebSocket protocol error: \(error)"), closeCode: 1002, context: context)
        case NIOSSLError.uncleanShutdown:
            break  // TCP ended without TLS close_notify: channelInactive reports the close
        default:
            fail(WebSocketFailure(.io, "\(error)"), closeCode: nil, context: context)
        }
    }

    /// Sends one whole message (fin set; masked with a fresh random key on the client side).
    /// Does nothing once a close frame was sent or received.
    package func send(_ frame: EncodedFrame) {
        queue(frame)
        flush()
    }

    /// Queues one whole message without flushing it: `flush()` (or the next `send` or close)
    /// sends it, with whatever else was queued, in one write. Does nothing once a close frame
    /// was sent or received.
    package func queue(_ frame: EncodedFrame) {
        guard case .open = closeState, let context else { return }
        let opcode: WebSocketOpcode = frame.kind == .text ? .text : .binary
        context.write(outbound(opcode: opcode, payload: frame.payload, context: context), promise: nil)
    }

    /// Sends the messages queued by `queue`.
    package func flush() {
        context?.flush()
    }

    /// Starts the close handshake: sends a close frame, then closes the channel when the peer
    /// answers with its own or after `closeReplyTimeout`.
    package func close(code: Int, reason: String) {
        guard case .open = closeState, let context else { return }
        write(opcode: .connectionClose, payload: Self.closePayload(code: code, reason: reason, context: context), context: context)
        let timer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.closeReplyTimeout) { [weak self] () -> Void in
            self?.closeChannel()
        }
        closeState = .closeSent(timer: timer)
    }

    private func peerClosed(code: Int?, context: ChannelHandlerContext) {
        switch closeState {
        case .open:
            // Echo the peer's code (RFC 6455 §5.5.1), then drop TCP once the echo is written.
            closeState = .closing
            let echoCode = code.flatMap { [1005, 1006, 1015].contains($0) ? nil : $0 }
            let payload = echoCode.map { Self.closePayload(code: $0, reason: "", context: context) }
            writeThenCloseChannel(
                opcode: .connectionClose,
                payload: payload ?? context.channel.allocator.buffer(capacity: 0),
                context: context
            )
        case .closeSent:
            cancelCloseTimer()
            closeState = .closing
            context.close(promise: nil)
        case .closing:
            break
        }
    }

    private func fail(_ failure: WebSocketFailure, closeCode: Int?, context: ChannelHandlerContext) {
        guard !closedReported else { return }
        if case .closing = closeState { return }
        emit(.failed(failure, at: MonotonicInstant.now()))
        let wasOpen: Bool
        if case .open = closeState { wasOpen = true } else { wasOpen = false }
        cancelCloseTimer()
        closeState = .closing
        if let closeCode, wasOpen, context.channel.isActive {
            let payload = Self.closePayload(code: closeCode, reason: "", context: context)
            writeThenCloseChannel(opcode: .connectionClose, payload: payload, context: context)
        } else {
            context.close(promise: nil)
        }
    }

    private func closeChannel() {
        closeState = .closing
        context?.close(promise: nil)
    }

    private func cancelCloseTimer() {
        if case .closeSent(let timer) = closeState {
            timer?.cancel()
            closeState = .closeSent(timer: nil)
        }
    }

    private func reportClosedWithoutCode() {
        guard !closedReported else { return }
        closedReported = true
        emit(.closed(code: nil, reason: nil, at: MonotonicInstant.now()))
    }

    private func emit(_ event: WebSocketConnectionEvent) {
        guard let onEvent else {
            pendingEvents.append(event)
            return
        }
        onEvent(event)
        if case .closed = event {
            self.onEvent = nil  // nothing follows .closed; break any connection ↔ closure cycle
        }
    }

    private func write(opcode: WebSocketOpcode, payload: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(outbound(opcode: opcode, payload: payload, context: context), promise: nil)
    }

    private func writeThenCloseChannel(opcode: WebSocketOpcode, payload: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(outbound(opcode: opcode, payload: payload, context: context))
            .assumeIsolated()
            .whenComplete { _ in context.close(promise: nil) }
    }

    /// What goes down the pipeline for one message. A client writes the frame's bytes itself
    /// (`WebSocketFrameWriter`: header and masked payload in one buffer), so no encoder follows
    /// it and the message travels as a `ByteBuffer`, which NIO passes without boxing it: a
    /// `WebSocketFrame` went into a heap box and was cast out of it again per frame. A server's
    /// frame goes to NIO's encoder.
    private func outbound(opcode: WebSocketOpcode, payload: ByteBuffer, context: ChannelHandlerContext) -> NIOAny {
        switch role {
        case .client:
            let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(using: &maskingKeys), data: payload)
            return NIOAny(WebSocketFrameWriter.encode(frame, allocator: context.channel.allocator))
        case .server:
            return Self.wrapOutboundOut(serverFrame(opcode: opcode, payload: payload))
        }
    }

    /// NIO's encoder (installed by its server upgrader) writes the header into the payload's own
    /// buffer when it has room in front and is not shared: one buffer, one iovec, instead of a
    /// header buffer next to the shared pre-encoded frame.
    private func serverFrame(opcode: WebSocketOpcode, payload: ByteBuffer) -> WebSocketFrame {
        var framed =
            context?.channel.allocator.buffer(capacity: payload.readableBytes + Self.headerRoomBytes)
            ?? ByteBuffer()
        framed.moveWriterIndex(forwardBy: Self.headerRoomBytes)
        framed.moveReaderIndex(forwardBy: Self.headerRoomBytes)
        var source = payload
        framed.writeBuffer(&source)
        return WebSocketFrame(fin: true, opcode: opcode, maskKey: nil, data: framed)
    }

    /// The largest unmasked frame header (2 bytes and an 8-byte length).
    private static let headerRoomBytes = 10

    /// A close frame body: the 2-byte code and a UTF-8 reason cut to fit the 125-byte limit.
    package static func closePayload(code: Int, reason: String, context: ChannelHandlerContext) -> ByteBuffer {
        var reasonBytes = Array(reason.utf8.prefix(123))
        while !reasonBytes.isEmpty, String(validating: reasonBytes, as: UTF8.self) == nil {
            reasonBytes.removeLast()  // do not cut a multi-byte character in half
        }
        var buffer = context.channel.allocator.buffer(capacity: 2 + reasonBytes.count)
        buffer.writeInteger(UInt16(clamping: code))
        buffer.writeBytes(reasonBytes)
        return buffer
    }
}
