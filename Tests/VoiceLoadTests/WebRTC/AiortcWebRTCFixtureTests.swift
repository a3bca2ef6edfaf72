import Foundation
import Testing

@testable import WebRTC

/// vload's STUN codec and SDP reader and writer against aioice's and aiortc's
/// (Tests/Conformance/webrtc_fixtures.py; the conformance suite checks the file is theirs).
@Suite("STUN and SDP against aioice and aiortc")
struct AiortcWebRTCFixtureTests {
    struct Fixture: Decodable {
        var stun: [Message]
        var offer: Offer
        var answers: [String: String]
    }

    struct Message: Decodable {
        var name: String
        var bytes: String
        var type: UInt16
        var transactionId: String
        var integrity: Bool
        var attributes: [Attribute]
    }

    struct Attribute: Decodable {
        var name: String
        var text: String?
        var number: UInt64?
        var host: String?
        var port: UInt16?
        var code: Int?
        var reason: String?
    }

    struct Offer: Decodable {
        var port: UInt16
        var iceUfrag: String
        var icePwd: String
        var candidates: [String]
        var fingerprints: [String]
        var dtlsRole: String
        var ssrc: [SSRC]
        var codecs: [String]
    }

    struct SSRC: Decodable {
        var ssrc: UInt32
        var cname: String
    }

    static let password = Array("0123456789abcdefghijklmnop".utf8)

    private static func fixture() throws -> Fixture {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Fixture.self, from: Data(contentsOf: URL(fileURLWithPath: fixturePath("aiortc_webrtc.json"))))
    }

    private static func fixturePath(_ name: String) -> String { repositoryRoot() + "/Tests/Conformance/fixtures/" + name }

    private static func attribute(_ expected: Attribute) throws -> STUNAttribute {
        switch expected.name {
        case "USERNAME": return .username(try #require(expected.text))
        case "SOFTWARE": return .software(try #require(expected.text))
        case "PRIORITY": return .priority(UInt32(try #require(expected.number)))
        case "ICE-CONTROLLING": return .iceControlling(tieBreaker: try #require(expected.number))
        case "ICE-CONTROLLED": return .iceControlled(tieBreaker: try #require(expected.number))
        case "USE-CANDIDATE": return .useCandidate
        case "ERROR-CODE": return .errorCode(code: try #require(expected.code), reason: try #require(expected.reason))
        case "XOR-MAPPED-ADDRESS":
            let host = try #require(expected.host)
            let port = try #require(expected.port)
            if let address = STUNAddress(ipv4: host, port: port) { return .xorMappedAddress(address) }
            #expect(host == "::1")
            return .xorMappedAddress(STUNAddress(ipBytes: [UInt8](repeating: 0, count: 15) + [1], port: port))
        default:
            Issue.record("unexpected attribute \(expected.name)")
            return .other(type: 0, value: [])
        }
    }

    @Test("every message aioice packed reads as aioice reads it, and writes back to the same bytes")
    func stunMessages() throws {
        let fixture = try Self.fixture()
        #expect(fixture.stun.count == 6)
        for expected in fixture.stun {
            let wire = bytes(hex: expected.bytes)
            let key = expected.integrity ? Self.password : nil
            let message = try STUNMessage(parsing: wire, integrityKey: key)
            #expect(message.type.rawValue == expected.type, "\(expected.name)")
            #expect(message.transactionID.bytes == bytes(hex: expected.transactionId), "\(expected.name)")
            #expect(message.attributes == (try expected.attributes.map(Self.attribute)), "\(expected.name)")
            #expect(message.hadIntegrity == expected.integrity, "\(expected.name)")
            #expect(message.hadFingerprint, "\(expected.name)")
            #expect(message.serialized(integrityKey: key, fingerprint: true) == wire, "\(expected.name)")
        }
    }

    @Test("a message aioice signed fails with another password, and a changed byte fails the fingerprint")
    func stunIntegrityFailures() throws {
        let request = bytes(hex: try Self.fixture().stun[0].bytes)
        #expect(throws: STUNParseError.integrityMismatch) {
            try STUNMessage(parsing: request, integrityKey: Array("another password".utf8))
        }
        var changed = request
        changed[24] ^= 0x01
        #expect(throws: STUNParseError.integrityMismatch) { try STUNMessage(parsing: changed, integrityKey: Self.password) }
        #expect(throws: STUNParseError.fingerprintMismatch) { try STUNMessage(parsing: changed, integrityKey: nil) }
    }

    @Test("vload's offer is the committed one that aiortc reads")
    func offer() throws {
        let offer = SDPOffer(
            sessionID: 4_242_424_242, iceUfrag: "vloadUfrag", icePassword: "vloadPassword0123456789+",
            candidate: ICECandidate(
                foundation: "1", component: 1, transport: "udp", priority: ICECandidate.priority(kind: .host), host: "127.0.0.1",
                port: 50_123, kind: .host),
            fingerprint: DTLSFingerprint(hashFunction: "sha-256", digest: Array(0..<32)), ssrc: 305_419_896, cname: "vload")
        let committed = try String(contentsOfFile: Self.fixturePath("vload_sdp_offer.sdp"), encoding: .utf8)
        #expect(offer.text == committed)
        // What aiortc read from it.
        let read = try Self.fixture().offer
        #expect(read.port == offer.candidate.port)
        #expect(read.iceUfrag == offer.iceUfrag && read.icePwd == offer.icePassword)
        #expect(read.candidates == [offer.candidate.attributeValue])
        #expect(read.fingerprints == [offer.fingerprint.attributeValue])
        #expect(read.dtlsRole == "auto")
        #expect(read.ssrc.map(\.ssrc) == [offer.ssrc] && read.ssrc.map(\.cname) == [offer.cname])
        #expect(read.codecs == ["111 opus/48000/2"])
    }

    @Test("aiortc's full-ICE and ICE-lite answers read as aiortc wrote them", arguments: ["full", "lite"])
    func answer(kind: String) throws {
        let text = try #require(try Self.fixture().answers[kind])
        let answer = try SDPAnswer(parsing: text)
        #expect(answer.iceLite == (kind == "lite"))
        #expect(answer.iceUfrag == "peerUfrag")
        #expect(answer.icePassword == "0123456789abcdefghijklmnop")
        #expect(answer.candidates.map(\.attributeValue) == [
            "a1b2 1 udp 2130706431 127.0.0.1 40000 typ host", "c3d4 1 udp 2130706175 ::1 40002 typ host",
        ])
        #expect(answer.fingerprint == DTLSFingerprint(hashFunction: "sha-256", digest: Array(0xA0..<0xC0)))
        #expect(answer.setup == .active)
        #expect(answer.opusPayloadType == 111)
        #expect(answer.direction == "sendrecv")
    }
}
