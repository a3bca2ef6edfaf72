import Foundation
import Testing

@testable import WebRTC

/// The answerer's SDP: what it reads from vload's own offer, and the ICE-lite answer it writes,
/// read back by vload's `SDPAnswer` as a caller reads it.
@Suite("SDP offer reading and the ICE-lite answer")
struct SDPLiteAnswerTests {
    static let answererFingerprint = DTLSFingerprint(hashFunction: "sha-256", digest: Array(100..<132))

    static func answer(to offer: SDPReceivedOffer) -> SDPLiteAnswer {
        SDPLiteAnswer(
            sessionID: 42, iceUfrag: "simUfrag", icePassword: "simPassword0123456789abc",
            candidate: ICECandidate(
                foundation: "1", component: 1, transport: "udp", priority: ICECandidate.priority(kind: .host), host: "127.0.0.1",
                port: 40_500, kind: .host),
            fingerprint: answererFingerprint, ssrc: 0xA9E1, cname: "vload-simulator", offer: offer)
    }

    @Test("vload's offer with a data channel: credentials, fingerprint, actpass, opus 111, mids 0 and 1, sctp-port 5000")
    func readsVloadOffer() throws {
        let offer = try SDPReceivedOffer(parsing: SDPDataChannelTests.offer(dataChannel: true).text)
        #expect(offer.iceUfrag == "vloadUfrag" && offer.icePassword == "vloadPassword0123456789+")
        #expect(offer.fingerprint == DTLSFingerprint(hashFunction: "sha-256", digest: Array(0..<32)))
        #expect(offer.setup == .actpass && offer.answererSetup == .passive)
        #expect(offer.opusPayloadType == 111 && offer.audioMediaID == "0")
        #expect(offer.dataChannel == SDPDataChannelSection(mediaID: "1", sctpPort: 5_000))
        #expect(try SDPReceivedOffer(parsing: SDPDataChannelTests.offer(dataChannel: false).text).dataChannel == nil)
    }

    @Test("the answer reads back as an ICE-lite, passive answer with the host candidate, the fingerprint and the channel")
    func answerReadsBack() throws {
        let offer = try SDPReceivedOffer(parsing: SDPDataChannelTests.offer(dataChannel: true).text)
        let text = Self.answer(to: offer).text
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(lines.contains("a=group:BUNDLE 0 1") && lines.contains("a=ice-lite") && lines.contains("a=mid:1"))
        #expect(lines.contains("m=audio 40500 UDP/TLS/RTP/SAVPF 111") && lines.contains("a=sendrecv"))
        let answer = try SDPAnswer(parsing: text)
        #expect(answer.iceLite && answer.setup == .passive)
        #expect(answer.iceUfrag == "simUfrag" && answer.icePassword == "simPassword0123456789abc")
        #expect(answer.candidates.map { "\($0.host):\($0.port)" } == ["127.0.0.1:40500"])
        #expect(answer.fingerprint == Self.answererFingerprint && answer.opusPayloadType == 111)
        #expect(answer.sctpPort == 5_000 && answer.maxMessageSizeBytes == SDPOffer.maxMessageSizeBytes)
    }

    @Test("no data channel offered: no m=application answered; an offerer that is passive gets an active answer")
    func audioOnlyAndActive() throws {
        let audioOnly = try SDPReceivedOffer(parsing: SDPDataChannelTests.offer(dataChannel: false).text)
        let answer = try SDPAnswer(parsing: Self.answer(to: audioOnly).text)
        #expect(answer.sctpPort == nil && !Self.answer(to: audioOnly).text.contains("m=application"))
        let passiveText = SDPDataChannelTests.offer(dataChannel: false).text.replacingOccurrences(of: "a=setup:actpass", with: "a=setup:passive")
        let passive = try SDPReceivedOffer(parsing: passiveText)
        #expect(passive.answererSetup == .active)
        #expect(try SDPAnswer(parsing: Self.answer(to: passive).text).setup == .active)
    }

    @Test("an offer without what a call needs is a one-line error naming it")
    func offerErrors() {
        let text = SDPDataChannelTests.offer(dataChannel: false).text
        #expect(throws: SDPOfferParseError.missing("m=audio section")) { try SDPReceivedOffer(parsing: "v=0\r\n") }
        #expect(throws: SDPOfferParseError.missing("a=ice-ufrag")) {
            try SDPReceivedOffer(parsing: text.replacingOccurrences(of: "a=ice-ufrag:vloadUfrag", with: "a=x"))
        }
        #expect(throws: SDPOfferParseError.missing("a=rtpmap for opus/48000/2")) {
            try SDPReceivedOffer(parsing: text.replacingOccurrences(of: "opus/48000/2", with: "PCMU/8000"))
        }
        #expect(throws: SDPOfferParseError.malformedLine("a=fingerprint:sha-256 XYZ")) {
            try SDPReceivedOffer(parsing: text + "a=fingerprint:sha-256 XYZ\r\n")
        }
        #expect(SDPOfferParseError.missing("a=ice-pwd").description == "SDP offer has no a=ice-pwd")
    }
}
