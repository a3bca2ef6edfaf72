import RTP

/// The transport's connect phases and what it then reports, on the event loop.
package enum WebRTCTransportEvent {
    /// ICE selected a pair and DTLS finished: media can flow.
    case connected(iceMs: Double, dtlsMs: Double)
    /// An RTP packet of the peer's, unprotected, and when it arrived.
    case rtp(RTPPacket, arrivalNanoseconds: UInt64)
    case failed(WebRTCTransportFailure)
}

/// Why the transport stopped; each is one line in the session's error.
package enum WebRTCTransportFailure: Error, Sendable, CustomStringConvertible {
    case ice(ICEFailure)
    case dtls(DTLSFailure)
    case srtp(SRTPError)
    case channel(String)

    package var description: String {
        switch self {
        case .ice(let failure): return failure.description
        case .dtls(let failure): return failure.description
        case .srtp(let error): return error.description
        case .channel(let detail): return "WebRTC socket failed: \(detail)"
        }
    }
}
