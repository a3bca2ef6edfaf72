/// What the transport counted, for the session's figures and the tests.
package struct WebRTCTransportCounters: Sendable, Hashable {
    package var rtpSent = 0
    package var rtpReceived = 0
    /// SRTP packets that failed authentication or replay checks, or RTP that did not parse.
    package var rtpRejected = 0
    package var rtcpReceived = 0
    package var stunReceived = 0
    package var dtlsReceived = 0
    /// Datagrams that are none of STUN, DTLS or RTP/RTCP (RFC 7983), or came from elsewhere.
    package var otherReceived = 0

    package init() {}
}
