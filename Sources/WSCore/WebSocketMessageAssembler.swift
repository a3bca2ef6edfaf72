import NIOCore
import NIOWebSocket

/// The receive side of RFC 6455 as a value-type state machine: takes decoded frames and says
/// what the channel handler must do (deliver a message, answer a ping, handle a close, fail).
///
/// It reassembles fragmented messages, stamping them with the arrival of the first fragment,
/// unmasks masked frames, and bounds a message to `maxMessageBytes`. No I/O, no clock.
package struct WebSocketMessageAssembler {
    /// What to do with one inbound frame.
    package enum Action {
        /// Nothing to do (a pong, or a fragment that does not finish a message).
        case none
        /// A whole message arrived.
        case deliver(TimestampedFrame)
        /// Answer a ping with a pong carrying this payload.
        case sendPong(ByteBuffer)
        /// The peer sent a close frame (code nil when it carried no code).
        case peerClosed(code: Int?, reason: String?)
        /// The peer broke the protocol: close with this code and report the message.
        case violation(closeCode: Int, message: String)
    }

    private struct PartialMessage {
        var isText: Bool
        var payload: ByteBuffer
        var firstFragmentAt: MonotonicInstant
    }

    /// The largest message (the sum of its fragments) accepted, in bytes.
    package let maxMessageBytes: Int
    private var partial: PartialMessage?

    package init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// Whether a fragmented message is being reassembled.
    package var isReassembling: Bool { partial != nil }

    /// Feeds one frame that arrived at `receivedAt`.
    package mutating func receive(_ frame: WebSocketFrame, at receivedAt: MonotonicInstant) -> Action {
        guard frame.reservedBits.isEmpty else {
            return .violation(closeCode: 1002, message: "frame with reserved bits set (no extension was negotiated)")
        }
        switch frame.opcode {
        case .text, .binary:
            guard partial == nil else {
                return .violation(closeCode: 1002, message: "new data frame inside a fragmented message")
            }
            let isText = frame.opcode == .text
            if frame.fin {
                return .deliver(TimestampedFrame(frame: Self.wholeMessage(frame, isText: isText), receivedAt: receivedAt))
            }
            partial = PartialMessage(isText: isText, payload: Self.payload(of: frame), firstFragmentAt: receivedAt)
            return .none
        case .continuation:
            guard var message = partial else {
                return .violation(closeCode: 1002, message: "continuation frame without a message to continue")
            }
            partial = nil  // keep the buffer uniquely referenced while appending
            var fragment = Self.payload(of: frame)
            guard message.payload.readableBytes + fragment.readableBytes <= maxMessageBytes else {
                return .violation(closeCode: 1009, message: "fragmented message larger than \(maxMessageBytes) bytes")
            }
            message.payload.writeBuffer(&fragment)
            if frame.fin {
                return .deliver(Self.message(isText: message.isText, payload: message.payload, at: message.firstFragmentAt))
            }
            partial = message
            return .none
        case .ping:
            return .sendPong(Self.payload(of: frame))
        case .pong:
            return .none
        case .connectionClose:
            return Self.closeAction(payload: Self.payload(of: frame))
        default:
            return .violation(closeCode: 1002, message: "frame with reserved opcode \(frame.opcode)")
        }
    }

    /// The frame's payload, unmasked when the peer masked it (every client frame).
    private static func payload(of frame: WebSocketFrame) -> ByteBuffer {
        WebSocketMasking.unmaskedData(of: frame, allocator: Self.allocator)
    }

    private static let allocator = ByteBufferAllocator()

    /// A message in one frame. A masked one (every client frame) is unmasked straight into
    /// the message: one copy, not one into a buffer and another into the message.
    private static func wholeMessage(_ frame: WebSocketFrame, isText: Bool) -> WireFrame {
        guard let key = frame.maskKey else { return wireFrame(isText: isText, payload: frame.data) }
        return WebSocketMasking.unmaskedWireFrame(frame.data, maskedWith: key, isText: isText)
    }

    private static func message(isText: Bool, payload: ByteBuffer, at receivedAt: MonotonicInstant) -> TimestampedFrame {
        TimestampedFrame(frame: wireFrame(isText: isText, payload: payload), receivedAt: receivedAt)
    }

    private static func wireFrame(isText: Bool, payload: ByteBuffer) -> WireFrame {
        isText ? .text(String(buffer: payload)) : .binary(Array(payload.readableBytesView))
    }

    private static func closeAction(payload: ByteBuffer) -> Action {
        var payload = payload
        switch payload.readableBytes {
        case 0:
            return .peerClosed(code: nil, reason: nil)
        case 1:
            return .violation(closeCode: 1002, message: "close frame with a 1-byte payload")
        default:
            let code = Int(payload.readInteger(as: UInt16.self)!)
            let reason = payload.readableBytes > 0 ? String(buffer: payload) : nil
            return .peerClosed(code: code, reason: reason)
        }
    }
}
