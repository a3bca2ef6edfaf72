import NIOCore
import WSCore

/// An open client WebSocket connection, made by `WebSocketClient.connect`.
///
/// Use it on its event loop (the one passed to `connect`); calls from elsewhere are hopped
/// onto the loop. Inbound messages and the close arrive through the `onEvent` closure given
/// to `connect`.
package final class WebSocketConnection: Sendable {
    /// When the server's 101 response was processed.
    package var openedAt: MonotonicInstant { connectStamps.openedAt }
    /// When the opening passed each of its steps (lookup, TCP, TLS, 101): the connect phases.
    package let connectStamps: ConnectStamps
    /// The subprotocol the server selected (`Sec-WebSocket-Protocol`), if any.
    package let subprotocol: String?
    /// The event loop the connection lives on.
    package var eventLoop: EventLoop { handler.eventLoop }

    private let handler: FrameHandlerReference
    private let channel: Channel

    init(channel: Channel, handler: FrameHandlerReference, connectStamps: ConnectStamps, subprotocol: String?) {
        self.channel = channel
        self.handler = handler
        self.connectStamps = connectStamps
        self.subprotocol = subprotocol
    }

    /// Whether messages can still be sent (no close frame sent or received, TCP up).
    /// Read it on the event loop.
    package var isOpen: Bool { handler.isOpen }

    /// Writes and flushes one whole message, masked with a fresh random key. Ignored once the
    /// connection is closing.
    package func send(_ frame: EncodedFrame) {
        handler.send(frame)
    }

    /// Sends a close frame, then closes the TCP connection when the server answers with its
    /// close frame, or after a short timeout (2 s). `.closed` is reported either way.
    package func close(code: Int = 1000, reason: String = "") {
        handler.close(code: code, reason: reason)
    }

    /// Closes the TCP connection at once, without a close handshake (`.closed` with no code).
    package func abort() {
        channel.close(promise: nil)
    }

    /// Completes when the underlying TCP connection is closed.
    package var closeFuture: EventLoopFuture<Void> { channel.closeFuture }
}
