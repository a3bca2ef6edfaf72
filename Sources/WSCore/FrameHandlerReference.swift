import NIOCore

/// A Sendable reference to a connection's `WebSocketFrameHandler`, bound to its event loop.
///
/// Calls made on the loop run at once; calls from elsewhere are hopped onto the loop, so a
/// connection object may be shared freely while its hot path stays on the loop.
package struct FrameHandlerReference: Sendable {
    private let bound: NIOLoopBound<WebSocketFrameHandler>

    package init(_ handler: WebSocketFrameHandler, eventLoop: EventLoop) {
        self.bound = NIOLoopBound(handler, eventLoop: eventLoop)
    }

    package var eventLoop: EventLoop { bound.eventLoop }

    /// Must be read on the event loop.
    package var isOpen: Bool { bound.value.isOpen }

    package func send(_ frame: EncodedFrame) {
        if eventLoop.inEventLoop {
            bound.value.send(frame)
        } else {
            eventLoop.execute { [bound] in bound.value.send(frame) }
        }
    }

    package func queue(_ frame: EncodedFrame) {
        if eventLoop.inEventLoop {
            bound.value.queue(frame)
        } else {
            eventLoop.execute { [bound] in bound.value.queue(frame) }
        }
    }

    package func flush() {
        if eventLoop.inEventLoop {
            bound.value.flush()
        } else {
            eventLoop.execute { [bound] in bound.value.flush() }
        }
    }

    package func close(code: Int, reason: String) {
        if eventLoop.inEventLoop {
            bound.value.close(code: code, reason: reason)
        } else {
            eventLoop.execute { [bound] in bound.value.close(code: code, reason: reason) }
        }
    }

    package func setEventHandler(_ handler: @escaping @Sendable (WebSocketConnectionEvent) -> Void) {
        if eventLoop.inEventLoop {
            bound.value.setEventHandler(handler)
        } else {
            eventLoop.execute { [bound] in bound.value.setEventHandler(handler) }
        }
    }
}
