import Foundation
import VoiceLoad
import WSCore

/// Collects connection events from any thread, for tests.
final class WebSocketEventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [WebSocketConnectionEvent] = []

    var events: [WebSocketConnectionEvent] {
        lock.withLock { recorded }
    }

    var handler: @Sendable (WebSocketConnectionEvent) -> Void {
        { [self] event in lock.withLock { recorded.append(event) } }
    }

    /// The messages received, in order.
    var frames: [TimestampedFrame] {
        events.compactMap { event in
            if case .frame(let frame) = event { return frame }
            return nil
        }
    }

    /// The `.closed` events received.
    var closes: [(code: Int?, reason: String?)] {
        events.compactMap { event in
            if case .closed(let code, let reason, _) = event { return (code, reason) }
            return nil
        }
    }

    /// The `.failed` events received.
    var failures: [WebSocketFailure] {
        events.compactMap { event in
            if case .failed(let failure, _) = event { return failure }
            return nil
        }
    }
}

/// Delivers connection events to an async test as a stream.
struct WebSocketEventStream: Sendable {
    let stream: AsyncStream<WebSocketConnectionEvent>
    let handler: @Sendable (WebSocketConnectionEvent) -> Void

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: WebSocketConnectionEvent.self)
        self.stream = stream
        self.handler = { event in
            continuation.yield(event)
            if case .closed = event { continuation.finish() }
        }
    }

    /// The next event, or nil when the stream ended.
    func next() async -> WebSocketConnectionEvent? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}
