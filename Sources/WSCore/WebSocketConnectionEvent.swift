/// What a WebSocket connection reports to its owner, always on the connection's event loop,
/// synchronously from inside the channel handler.
///
/// A connection reports any number of `.frame`s, possibly one `.failed`, and then exactly one
/// `.closed`; nothing follows `.closed`.
package enum WebSocketConnectionEvent: Sendable {
    /// A whole text or binary message, stamped when its first byte-carrying frame came off the
    /// socket (the first fragment, for a fragmented message).
    case frame(TimestampedFrame)
    /// The connection ended. `code` and `reason` come from the peer's close frame; `code` is nil
    /// when the TCP connection ended without one (RFC 6455 code 1006 semantics) or the close
    /// frame carried no code.
    case closed(code: Int?, reason: String?, at: MonotonicInstant)
    /// A protocol violation, an oversized frame or an I/O error; the connection is being
    /// closed and `.closed` follows.
    case failed(WebSocketFailure, at: MonotonicInstant)
}

/// Why an open WebSocket connection failed.
package struct WebSocketFailure: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        /// An inbound frame, or a reassembled message, above the connection's size limit.
        case frameTooLarge
        /// The peer broke RFC 6455 (reserved bits or opcode, a stray continuation, a bad close frame).
        case protocolViolation
        /// The socket failed (reset, TLS error) without a close frame.
        case io
    }

    package var kind: Kind
    /// What happened, in one line.
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
