import RTP

/// What both transport handlers (the caller's `WebRTCChannelHandler` and the answerer's
/// `WebRTCAnswerHandler`) do with media once DTLS is done: the two SRTP sessions keyed from the
/// handshake, and each RTP/RTCP datagram from the selected peer sorted, unprotected and counted.
struct WebRTCMedia {
    let outbound: SRTPSession
    let inbound: SRTPSession
    /// The SRTP profile DTLS agreed, which keyed both sessions.
    let profile: SRTPProfile

    init(keys: SRTPKeyingMaterial) throws(SRTPError) {
        profile = keys.profile
        outbound = try SRTPSession(keys: keys, direction: .outbound)
        inbound = try SRTPSession(keys: keys, direction: .inbound)
    }

    /// A datagram whose first byte is 128…191 (RFC 7983). RTCP with rtcp-mux (payload types
    /// 192…223, RFC 5761 §4) is counted and dropped: vload sends no RTCP yet and reads none. A
    /// packet that fails SRTP's checks or does not parse is counted as rejected.
    func receive(_ bytes: [UInt8], counters: inout WebRTCTransportCounters) -> RTPPacket? {
        guard bytes.count >= 2 else {
            counters.otherReceived += 1
            return nil
        }
        if (192...223).contains(bytes[1]) {
            counters.rtcpReceived += 1
            return nil
        }
        guard let plain = try? inbound.unprotect(bytes), let packet = try? RTPPacket(parsing: plain) else {
            counters.rtpRejected += 1
            return nil
        }
        counters.rtpReceived += 1
        return packet
    }
}
