import NIOCore

/// An inbound message with the moment it came off the socket, read before any decoding.
public struct TimestampedFrame: Sendable {
    public var frame: WireFrame
    public var receivedAt: MonotonicInstant

    public init(frame: WireFrame, receivedAt: MonotonicInstant) {
        self.frame = frame
        self.receivedAt = receivedAt
    }
}

/// A message ready to write: encoded once, shared by every client that sends it.
public struct EncodedFrame: Sendable {
    public enum Kind: Sendable { case text, binary }

    public var kind: Kind
    public var payload: ByteBuffer

    public init(kind: Kind, payload: ByteBuffer) {
        self.kind = kind
        self.payload = payload
    }

    public init(_ frame: WireFrame) {
        switch frame {
        case .text(let string):
            self.init(kind: .text, payload: ByteBuffer(string: string))
        case .binary(let bytes):
            self.init(kind: .binary, payload: ByteBuffer(bytes: bytes))
        }
    }
}
