import NIOCore

/// An inbound message with the moment it came off the socket, read before any decoding.
package struct TimestampedFrame: Sendable {
    package var frame: WireFrame
    package var receivedAt: MonotonicInstant
    /// The compressed packet `frame` was decoded from (a WebRTC call's Opus payload, whose PCM
    /// is the frame), for a recording to keep in its place; nil for a WebSocket message.
    package var mediaPayload: [UInt8]?

    package init(frame: WireFrame, receivedAt: MonotonicInstant, mediaPayload: [UInt8]? = nil) {
        self.frame = frame
        self.receivedAt = receivedAt
        self.mediaPayload = mediaPayload
    }
}

/// A message ready to write: encoded once, shared by every client that sends it.
package struct EncodedFrame: Sendable {
    package enum Kind: Sendable { case text, binary }

    package var kind: Kind
    package var payload: ByteBuffer

    package init(kind: Kind, payload: ByteBuffer) {
        self.kind = kind
        self.payload = payload
    }

    package init(_ frame: WireFrame) {
        switch frame {
        case .text(let string):
            self.init(kind: .text, payload: ByteBuffer(string: string))
        case .binary(let bytes):
            self.init(kind: .binary, payload: ByteBuffer(bytes: bytes))
        }
    }
}
