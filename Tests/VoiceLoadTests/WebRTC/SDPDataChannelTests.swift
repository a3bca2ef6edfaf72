import Testing

@testable import WebRTC

/// The data channel's SDP (RFC 8841): the section vload offers and what it reads from an answer.
@Suite("SDP for the data channel")
struct SDPDataChannelTests {
    static func offer(dataChannel: Bool) -> SDPOffer {
        SDPOffer(
            sessionID: 7, iceUfrag: "vloadUfrag", icePassword: "vloadPassword0123456789+",
            candidate: ICECandidate(
                foundation: "1", component: 1, transport: "udp", priority: ICECandidate.priority(kind: .host), host: "127.0.0.1",
                port: 50_123, kind: .host),
            fingerprint: DTLSFingerprint(hashFunction: "sha-256", digest: Array(0..<32)), ssrc: 9, cname: "vload",
            offersDataChannel: dataChannel)
    }

    @Test("the offer bundles an m=application section with sctp-port 5000 and max-message-size, repeating ICE and DTLS")
    func offerSection() {
        let lines = Self.offer(dataChannel: true).text.split(separator: "\r\n").map(String.init)
        let plain = Self.offer(dataChannel: false).text.split(separator: "\r\n").map(String.init)
        #expect(lines.contains("a=group:BUNDLE 0 1") && plain.contains("a=group:BUNDLE 0"))
        let section = lines.firstIndex(of: "m=application 50123 UDP/DTLS/SCTP webrtc-datachannel") ?? lines.count
        let application = Array(lines[section...])
        #expect(Array(application.prefix(5)) == [
            "m=application 50123 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 127.0.0.1", "a=mid:1", "a=sctp-port:5000",
            "a=max-message-size:262144",
        ])
        // The audio section's transport lines, repeated.
        let transport = plain.filter { $0.hasPrefix("a=ice-") || $0.hasPrefix("a=candidate") || $0.hasPrefix("a=fingerprint") || $0.hasPrefix("a=setup") || $0 == "a=end-of-candidates" }
        #expect(Array(application.dropFirst(5).prefix(transport.count)) == transport)
        #expect(!plain.contains { $0.hasPrefix("m=application") })
    }

    static let answerHead = [
        "v=0", "o=- 1 0 IN IP4 0.0.0.0", "s=-", "t=0 0", "a=group:BUNDLE 0 1", "m=audio 40000 UDP/TLS/RTP/SAVPF 111",
        "c=IN IP4 127.0.0.1", "a=rtpmap:111 opus/48000/2", "a=ice-ufrag:peer", "a=ice-pwd:peerPassword0123456789",
        "a=candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host", "a=fingerprint:sha-256 " + (0..<32).map { _ in "AB" }.joined(separator: ":"),
        "a=setup:active",
    ]

    @Test("an answer's m=application gives the SCTP port and the peer's max-message-size; defaults as RFC 8841 says")
    func answerSection() throws {
        let stated = try SDPAnswer(parsing: (Self.answerHead + [
            "m=application 40000 DTLS/SCTP 5000", "a=sctp-port:5001", "a=max-message-size:65536", "a=ice-ufrag:peer",
        ]).joined(separator: "\r\n"))
        #expect(stated.sctpPort == 5_001 && stated.maxMessageSizeBytes == 65_536)
        #expect(stated.iceUfrag == "peer")
        let unstated = try SDPAnswer(parsing: (Self.answerHead + ["m=application 9 UDP/DTLS/SCTP webrtc-datachannel"]).joined(separator: "\n"))
        #expect(unstated.sctpPort == 5_000 && unstated.maxMessageSizeBytes == 65_536)
        let rejected = try SDPAnswer(parsing: (Self.answerHead + ["m=application 0 UDP/DTLS/SCTP webrtc-datachannel", "a=sctp-port:5000"]).joined(separator: "\n"))
        #expect(rejected.sctpPort == nil && rejected.maxMessageSizeBytes == nil)
        let none = try SDPAnswer(parsing: Self.answerHead.joined(separator: "\n"))
        #expect(none.sctpPort == nil)
        #expect(throws: SDPParseError.malformedLine("a=sctp-port:70000")) {
            try SDPAnswer(parsing: (Self.answerHead + ["m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "a=sctp-port:70000"]).joined(separator: "\n"))
        }
    }
}
