/// How a peer ended a call on purpose (docs/webrtc.md, "How a call ends"): what aiortc's
/// `RTCPeerConnection.close()` and browsers send when they hang up. Not a failure: the call is
/// over at once, where a peer that vanishes is only noticed when its silence times out.
package enum WebRTCHangUp: Sendable, Hashable, CustomStringConvertible {
    /// The peer's DTLS close_notify alert (RFC 5246 §7.2.1).
    case dtlsCloseNotify
    /// The peer aborted the data channel's SCTP association (an ABORT chunk, RFC 9260 §9.1).
    case sctpAbort
    /// The peer shut the SCTP association down (SHUTDOWN, RFC 9260 §9.2).
    case sctpShutdown

    package var description: String {
        switch self {
        case .dtlsCloseNotify: return "the peer hung up (DTLS close_notify)"
        case .sctpAbort: return "the peer hung up (SCTP ABORT)"
        case .sctpShutdown: return "the peer hung up (SCTP SHUTDOWN)"
        }
    }
}
