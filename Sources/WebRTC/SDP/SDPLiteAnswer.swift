/// The answer an ICE-lite server writes to a caller's offer (RFC 8829 §5.3, RFC 8445 §2.5):
/// `a=ice-lite`, one host candidate on its UDP socket, its certificate's sha-256 fingerprint and
/// the DTLS role it took, the offer's audio section answered `sendrecv` with the offer's opus
/// payload type, and the data channel's section when the offer has one, both bundled on the one
/// socket.
package struct SDPLiteAnswer: Sendable, Hashable {
    package var sessionID: UInt64
    package var iceUfrag: String
    package var icePassword: String
    package var candidate: ICECandidate
    package var fingerprint: DTLSFingerprint
    /// `passive` or `active` (`SDPReceivedOffer.answererSetup`).
    package var setup: DTLSSetupRole
    /// The answerer's RTP stream and its canonical name (RFC 3550 §6.5.1).
    package var ssrc: UInt32
    package var cname: String
    package var offer: SDPReceivedOffer

    package init(
        sessionID: UInt64, iceUfrag: String, icePassword: String, candidate: ICECandidate, fingerprint: DTLSFingerprint,
        ssrc: UInt32, cname: String, offer: SDPReceivedOffer
    ) {
        self.sessionID = sessionID
        self.iceUfrag = iceUfrag
        self.icePassword = icePassword
        self.candidate = candidate
        self.fingerprint = fingerprint
        self.setup = offer.answererSetup
        self.ssrc = ssrc
        self.cname = cname
        self.offer = offer
    }

    /// The answer's text, lines ended by CRLF (RFC 8866 §5).
    package var text: String {
        let payloadType = offer.opusPayloadType
        let mediaIDs = [offer.audioMediaID] + (offer.dataChannel.map { [$0.mediaID] } ?? [])
        let transport = SDPOffer.transportLines(
            ufrag: iceUfrag, password: icePassword, candidate: candidate, fingerprint: fingerprint, setup: setup)
        var lines = ["v=0", "o=- \(sessionID) 1 IN \(candidate.addressType) \(candidate.host)", "s=-", "t=0 0", "a=ice-lite"]
        lines.append("a=group:BUNDLE \(mediaIDs.joined(separator: " "))")
        lines += [
            "m=audio \(candidate.port) UDP/TLS/RTP/SAVPF \(payloadType)",
            "c=IN \(candidate.addressType) \(candidate.host)",
            "a=mid:\(offer.audioMediaID)",
            "a=sendrecv",
            "a=rtcp-mux",
            "a=rtpmap:\(payloadType) opus/48000/2",
            "a=ssrc:\(ssrc) cname:\(cname)",
        ]
        lines += transport
        if let dataChannel = offer.dataChannel {
            lines += [
                "m=application \(candidate.port) UDP/DTLS/SCTP webrtc-datachannel",
                "c=IN \(candidate.addressType) \(candidate.host)",
                "a=mid:\(dataChannel.mediaID)",
                "a=sctp-port:\(SCTPAssociation.defaultPort)",
                "a=max-message-size:\(SDPOffer.maxMessageSizeBytes)",
            ]
            lines += transport
        }
        return lines.map { $0 + "\r\n" }.joined()
    }
}
