import Testing

@testable import VoiceLoad

/// Pipecat's SmallWebRTC `POST /api/offer` as values: the body pipecat-ai 1.14's
/// `SmallWebRTCRequest` reads, and its handler's answer.
@Suite("SmallWebRTC signalling")
struct SmallWebRTCSignallingTests {
    @Test("the offer is SmallWebRTCRequest's JSON: sdp, type, pc_id when renegotiating, restart_pc")
    func offerBody() {
        let fresh = SmallWebRTCOffer(sdp: "v=0\r\n")
        #expect(String(decoding: fresh.body, as: UTF8.self) == #"{"restart_pc":false,"sdp":"v=0\r\n","type":"offer"}"#)
        let again = SmallWebRTCOffer(sdp: "v=0", pcID: "SmallWebRTCConnection#0-ab/c", restartPC: true)
        #expect(
            String(decoding: again.body, as: UTF8.self)
                == #"{"pc_id":"SmallWebRTCConnection#0-ab/c","restart_pc":true,"sdp":"v=0","type":"offer"}"#)
    }

    @Test("the answer's sdp and pc_id are read; anything else is a one-line error")
    func answer() throws {
        let body = Array(#"{"sdp": "v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n", "type": "answer", "pc_id": "pc-1"}"#.utf8)
        let answer = try SmallWebRTCAnswer(status: 200, body: body)
        #expect(answer.sdp == "v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n" && answer.pcID == "pc-1")
        #expect(throws: SmallWebRTCSignallingError.status(500, "Internal Server Error")) {
            try SmallWebRTCAnswer(status: 500, body: Array("Internal Server Error".utf8))
        }
        #expect(throws: SmallWebRTCSignallingError.malformed("null")) { try SmallWebRTCAnswer(status: 200, body: Array("null".utf8)) }
        #expect(throws: SmallWebRTCSignallingError.malformed("(empty body)")) { try SmallWebRTCAnswer(status: 200, body: []) }
        #expect(throws: SmallWebRTCSignallingError.notAnAnswer("offer")) {
            try SmallWebRTCAnswer(status: 200, body: Array(#"{"sdp": "v=0", "type": "offer", "pc_id": "p"}"#.utf8))
        }
        #expect(
            SmallWebRTCSignallingError.status(422, "{\"detail\": 1}").description == "SmallWebRTC offer answered HTTP 422: {\"detail\": 1}")
    }
}
