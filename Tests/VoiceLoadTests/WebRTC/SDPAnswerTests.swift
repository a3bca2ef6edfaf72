import Testing

@testable import WebRTC

@Suite("SDP answers")
struct SDPAnswerTests {
    static let fingerprintLine = "a=fingerprint:sha-256 " + (0..<32).map { _ in "AB" }.joined(separator: ":")

    static func answer(session: [String], audio: [String]) -> String {
        (["v=0", "o=- 1 1 IN IP4 0.0.0.0", "s=-", "t=0 0"] + session + ["m=audio 9 UDP/TLS/RTP/SAVPF 96"] + audio)
            .joined(separator: "\n") + "\n"
    }

    @Test("session-level credentials, fingerprint and ice-lite hold for the audio section; no a=setup means active")
    func sessionLevel() throws {
        let text = Self.answer(
            session: ["a=ice-lite", "a=ice-ufrag:sess", "a=ice-pwd:sessionpassword0123456789", Self.fingerprintLine],
            audio: ["a=rtpmap:96 OPUS/48000/2", "a=recvonly", "a=candidate:0 1 UDP 2122252543 127.0.0.1 5000 typ host generation 0",
                    "a=candidate:0 2 UDP 2122252542 127.0.0.1 5001 typ host"])
        let answer = try SDPAnswer(parsing: text)
        #expect(answer.iceLite)
        #expect(answer.iceUfrag == "sess")
        #expect(answer.setup == .active)
        #expect(answer.opusPayloadType == 96)
        #expect(answer.direction == "recvonly")
        #expect(answer.candidates == [ICECandidate(foundation: "0", component: 1, transport: "udp", priority: 2_122_252_543, host: "127.0.0.1", port: 5000, kind: .host)])
    }

    @Test("an answer missing what the call needs names it")
    func missing() {
        let complete = ["a=ice-ufrag:u", "a=ice-pwd:p", Self.fingerprintLine, "a=rtpmap:96 opus/48000/2", "a=candidate:1 1 udp 1 127.0.0.1 9 typ host"]
        let cases: [(dropped: String, error: SDPParseError)] = [
            ("a=ice-ufrag:u", .missing("a=ice-ufrag")),
            ("a=ice-pwd:p", .missing("a=ice-pwd")),
            (Self.fingerprintLine, .missing("a=fingerprint")),
            ("a=rtpmap:96 opus/48000/2", .missing("a=rtpmap for opus/48000/2")),
            ("a=candidate:1 1 udp 1 127.0.0.1 9 typ host", .missing("a=candidate")),
        ]
        for (dropped, error) in cases {
            #expect(throws: error) { try SDPAnswer(parsing: Self.answer(session: [], audio: complete.filter { $0 != dropped })) }
        }
        #expect(throws: SDPParseError.missing("m=audio section")) { try SDPAnswer(parsing: "v=0\n") }
        #expect(throws: SDPParseError.missing("a=ice-ufrag")) {
            try SDPAnswer(parsing: Self.answer(session: [], audio: ["a=ice-ufrag:"] + complete.filter { $0 != "a=ice-ufrag:u" }))
        }
        #expect(throws: SDPParseError.malformedLine("a=candidate:1 1 udp")) {
            try SDPAnswer(parsing: Self.answer(session: [], audio: complete + ["a=candidate:1 1 udp"]))
        }
        #expect(throws: SDPParseError.malformedLine("a=fingerprint:sha-256 XYZ")) {
            try SDPAnswer(parsing: Self.answer(session: [], audio: complete + ["a=fingerprint:sha-256 XYZ"]))
        }
    }
}
