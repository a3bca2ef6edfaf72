import NIOCore
import WSCore

/// One accepted WebSocket connection on a `WebSocketListener`.
///
/// Use it on its `eventLoop`; calls from elsewhere are hopped onto the loop. Install the event
/// handler with `setEventHandler`: events that arrive before it is installed are buffered and
/// delivered, in order, when it is.
package final class WebSocketServerConnection: Sendable {
    /// The upgrade request that opened this connection.
    package let request: WebSocketUpgradeRequest
    /// The subprotocol this server accepted, if any.
    package let subprotocol: String?
    /// What `shouldUpgrade` attached when it accepted the request (`WebSocketUpgradeDecision.accept`).
    package let tag: UInt64?
    /// The event loop of the connection's channel.
    package var eventLoop: EventLoop { handler.eventLoop }

    private let handler: FrameHandlerReference
    private let channel: Channel

    init(channel: Channel, handler: FrameHandlerReference, request: WebSocketUpgradeRequest, subprotocol: String?, tag: UInt64? = nil) {
        self.channel = channel
        self.handler = handler
        self.request = request
        self.subprotocol = subprotocol
        self.tag = tag
    }

    /// Installs the closure that receives this connection's events, on the event loop.
    package func setEventHandler(_ handler: @escaping @Sendable (WebSocketConnectionEvent) -> Void) {
        self.handler.setEventHandler(handler)
    }

    /// Whether messages can still be sent. Read it on the event loop.
    package var isOpen: Bool { handler.isOpen }

    /// Writes and flushes one whole (unmasked) message. Ignored once the connection is closing.
    package func send(_ frame: EncodedFrame) {
        handler.send(frame)
    }

    /// Queues one whole (unmasked) message without flushing it; `flush()`, the next `send` or
    /// `close` sends it with the others queued, in one write.
    package func queue(_ frame: EncodedFrame) {
        handler.queue(frame)
    }

    /// Sends the messages queued.
    package func flush() {
        handler.flush()
    }

    /// Sends a close frame with this code and reason, then closes the TCP connection when the
    /// client answers or after a short timeout (2 s).
    package func close(code: Int = 1000, reason: String = "") {
        handler.close(code: code, reason: reason)
    }

    /// Completes when the underlying TCP connection is closed.
    package var closeFuture: EventLoopFuture<Void> { channel.closeFuture }
}
