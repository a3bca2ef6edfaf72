import RTP

/// The transport's connect phases and what it then reports, on the event loop.
package enum WebRTCTransportEvent {
    /// ICE selected a pair and DTLS finished, agreeing `srtpProfile`: media can flow.
    case connected(iceMs: Double, dtlsMs: Double, srtpProfile: SRTPProfile)
    /// An RTP packet of the peer's, unprotected, and when it arrived.
    case rtp(RTPPacket, arrivalNanoseconds: UInt64)
    /// The data channel's OPEN was acknowledged: ms from the SCTP INIT (sent as DTLS finished)
    /// to the peer's DATA_CHANNEL_ACK.
    case dataChannelOpen(openMs: Double)
    /// A text or binary message on the data channel, and when usrsctp delivered it.
    case dataChannelText(String, arrivalNanoseconds: UInt64)
    case dataChannelBinary([UInt8], arrivalNanoseconds: UInt64)
    /// The peer hung up: the call is over, with no failure. Nothing follows.
    case hungUp(WebRTCHangUp)
    /// The transport failed: the call is over. Nothing follows.
    case failed(WebRTCTransportFailure)
}

/// Why the transport stopped; each is one line in the session's error.
package enum WebRTCTransportFailure: Error, Sendable, CustomStringConvertible {
    case ice(ICEFailure)
    case dtls(DTLSFailure)
    case srtp(SRTPError)
    /// The data channel's SCTP association failed or closed, or the answer has no data channel.
    case sctp(String)
    case channel(String)

    package var description: String {
        switch self {
        case .ice(let failure): return failure.description
        case .dtls(let failure): return failure.description
        case .srtp(let error): return error.description
        case .sctp(let detail): return "WebRTC data channel failed: \(detail)"
        case .channel(let detail): return "WebRTC socket failed: \(detail)"
        }
    }
}
