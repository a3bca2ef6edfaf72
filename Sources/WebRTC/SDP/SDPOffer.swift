/// The offer vload sends (RFC 8866, RFC 8829 §5.2): one audio m-line carrying Opus at 48 kHz
/// stereo (RFC 7587 §7), send and receive, RTP and RTCP on one port (RFC 8035), the ICE
/// credentials and the one host candidate, and the certificate's sha-256 fingerprint with
/// `setup:actpass` so the answerer picks the DTLS role. With `offersDataChannel`, a second
/// section for the data channel (RFC 8841: SCTP over the same DTLS association), bundled with
/// the audio.
package struct SDPOffer: Sendable, Hashable {
    /// Offered for Opus; the answer's payload type for opus is the one used (they match in practice).
    package static let opusPayloadType: UInt8 = 111
    /// The one media section's identification tag (RFC 9143 bundles it alone).
    package static let mediaID = "0"
    /// The data channel's section's identification tag.
    package static let dataChannelMediaID = "1"
    /// The largest message vload takes on the data channel (RFC 8841 §6): libwebrtc's figure;
    /// usrsctp reassembles messages of any size.
    package static let maxMessageSizeBytes = 262_144

    package var sessionID: UInt64
    package var iceUfrag: String
    package var icePassword: String
    package var candidate: ICECandidate
    package var fingerprint: DTLSFingerprint
    /// The caller's RTP stream and its canonical name (RFC 3550 §6.5.1).
    package var ssrc: UInt32
    package var cname: String
    package var offersDataChannel: Bool

    package init(
        sessionID: UInt64, iceUfrag: String, icePassword: String, candidate: ICECandidate, fingerprint: DTLSFingerprint,
        ssrc: UInt32, cname: String, offersDataChannel: Bool = false
    ) {
        self.sessionID = sessionID
        self.iceUfrag = iceUfrag
        self.icePassword = icePassword
        self.candidate = candidate
        self.fingerprint = fingerprint
        self.ssrc = ssrc
        self.cname = cname
        self.offersDataChannel = offersDataChannel
    }

    /// The offer's text, lines ended by CRLF (RFC 8866 §5).
    package var text: String {
        let payloadType = Self.opusPayloadType
        let bundle = offersDataChannel ? "\(Self.mediaID) \(Self.dataChannelMediaID)" : Self.mediaID
        var lines = ["v=0", "o=- \(sessionID) 1 IN IP4 0.0.0.0", "s=-", "t=0 0", "a=group:BUNDLE \(bundle)"]
        lines += [
            "m=audio \(candidate.port) UDP/TLS/RTP/SAVPF \(payloadType)",
            "c=IN \(candidate.addressType) \(candidate.host)",
            "a=mid:\(Self.mediaID)",
            "a=sendrecv",
            "a=rtcp-mux",
            "a=rtpmap:\(payloadType) opus/48000/2",
            "a=fmtp:\(payloadType) minptime=10;useinbandfec=1",
            "a=ssrc:\(ssrc) cname:\(cname)",
        ]
        lines += transportLines
        if offersDataChannel {
            // Each bundled section repeats the transport's attributes, as browsers write them.
            lines += [
                "m=application \(candidate.port) UDP/DTLS/SCTP webrtc-datachannel",
                "c=IN \(candidate.addressType) \(candidate.host)",
                "a=mid:\(Self.dataChannelMediaID)",
                "a=sctp-port:\(SCTPAssociation.defaultPort)",
                "a=max-message-size:\(Self.maxMessageSizeBytes)",
            ]
            lines += transportLines
        }
        return lines.map { $0 + "\r\n" }.joined()
    }

    /// ICE's and DTLS's attributes (RFC 8839, RFC 8842).
    private var transportLines: [String] {
        Self.transportLines(ufrag: iceUfrag, password: icePassword, candidate: candidate, fingerprint: fingerprint, setup: .actpass)
    }

    /// ICE's and DTLS's attributes for one side: its credentials, its one candidate (no
    /// trickle), its fingerprint and its DTLS role; an answer writes the same lines.
    static func transportLines(
        ufrag: String, password: String, candidate: ICECandidate, fingerprint: DTLSFingerprint, setup: DTLSSetupRole
    ) -> [String] {
        [
            "a=ice-ufrag:\(ufrag)",
            "a=ice-pwd:\(password)",
            "a=candidate:\(candidate.attributeValue)",
            "a=end-of-candidates",
            "a=fingerprint:\(fingerprint.attributeValue)",
            "a=setup:\(setup.rawValue)",
        ]
    }

    /// ICE credentials as RFC 8839 §5.4 wants them: a ufrag of at least 4 and a password of at
    /// least 22 ice-chars, drawn from `generator`.
    package static func iceCredentials(generator: inout some RandomNumberGenerator) -> (ufrag: String, password: String) {
        let iceChars = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        func draw(_ count: Int) -> String { String((0..<count).map { _ in iceChars.randomElement(using: &generator)! }) }
        return (draw(8), draw(24))
    }
}
