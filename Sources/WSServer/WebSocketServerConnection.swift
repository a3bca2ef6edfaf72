import NIOCore
import WSCore

/// One accepted WebSocket connection on a `WebSocketListener`.
///
/// Use it on its `eventLoop`; calls from elsewhere are hopped onto the loop. Install the event
/// handler with `setEventHandler`: events that arrive before it is installed are buffered and
/// delivered, in order, when it is.
///
/// A frame is stamped as it is read (`TimestampedFrame.receivedAt`) and delivered in a task on the
/// loop, in arrival order, once every read of the loop's turn has been stamped. A server (the
/// simulator) may do much with a frame (decode it, run a VAD, answer); done as each frame is
/// read, the stamp of every frame read after it in the same turn would wait for that work. With
/// a run's callers in step, their frames arrive together every 20 ms, and the last one read would
/// have its speech end heard late by all the others' handling (docs/webrtc.md, "When a packet
/// arrived", says the same for WebRTC).
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

    /// Installs the closure that receives this connection's events, on the event loop, once
    /// the reads of the loop's turn are stamped.
    package func setEventHandler(_ handler: @escaping @Sendable (WebSocketConnectionEvent) -> Void) {
        self.handler.setEventHandler(Self.afterReads(handler, on: eventLoop))
    }

    /// `handler`, run in a task on `eventLoop` for each event: the loop stamps every read of its
    /// turn before any is handled, and the events keep their order.
    static func afterReads(
        _ handler: @escaping @Sendable (WebSocketConnectionEvent) -> Void, on eventLoop: any EventLoop
    ) -> @Sendable (WebSocketConnectionEvent) -> Void {
        { event in eventLoop.execute { handler(event) } }
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
