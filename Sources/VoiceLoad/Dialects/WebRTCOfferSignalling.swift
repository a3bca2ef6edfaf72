import Foundation

/// How the server side of a WebRTC dialect takes a caller's offer and gives its answer over
/// HTTP (docs/webrtc.md): Pipecat's SmallWebRTC `POST /api/offer` (JSON both ways), or OpenAI
/// Realtime's `POST /v1/realtime/calls` (a form in, the SDP answer out with `201 Created`).
/// Values only: the simulator's answerer does the I/O.
package enum WebRTCOfferSignalling: Sendable, Hashable {
    case smallWebRTC
    case openAIRealtimeCalls

    /// The path offers are posted to.
    package var path: String {
        switch self {
        case .smallWebRTC: return "/api/offer"
        case .openAIRealtimeCalls: return OpenAIRealtimeWebRTCClientDialect.callsPath
        }
    }

    /// The offer's SDP in a POST to `path`, or the HTTP answer that refuses it: Pipecat's
    /// `{"sdp", "type": "offer"}` (a `pc_id` or `restart_pc` is not honoured: every offer is a
    /// new call), or OpenAI's form with its Bearer key (`OpenAIRealtimeCallForm`).
    package func offerSDP(headers: [(name: String, value: String)], body: [UInt8]) -> Result<String, WebRTCSignallingReply> {
        switch self {
        case .smallWebRTC:
            struct Wire: Decodable {
                var sdp: String
                var type: String
            }
            guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(body)), wire.type == "offer" else {
                return .failure(badOffer(#"the body is not {"sdp": …, "type": "offer"}"#))
            }
            return .success(wire.sdp)
        case .openAIRealtimeCalls:
            do {
                return .success(try OpenAIRealtimeCallForm(headers: headers, body: body).offerSDP)
            } catch {
                return .failure(error.reply)
            }
        }
    }

    /// The answer to an offer that cannot be answered (its SDP unreadable): 400, as the
    /// dialect's server words it.
    package func badOffer(_ reason: String) -> WebRTCSignallingReply {
        switch self {
        case .smallWebRTC:
            return WebRTCSignallingReply(status: 400, contentType: "text/plain", body: Array(reason.utf8))
        case .openAIRealtimeCalls:
            return OpenAIRealtimeCallRefusal(status: 400, message: "Invalid SDP offer: \(reason)", param: "sdp", code: nil).reply
        }
    }

    /// The answer carrying `sdp` for session `sessionNumber`: Pipecat's
    /// `{"sdp", "type": "answer", "pc_id"}` (keys sorted), or OpenAI's SDP with `201 Created`.
    package func answer(sdp: String, sessionNumber: UInt64) -> WebRTCSignallingReply {
        switch self {
        case .smallWebRTC:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // Three strings always encode.
            let body = (try? encoder.encode(["sdp": sdp, "type": "answer", "pc_id": "sim-pc-\(sessionNumber)"])) ?? Data()
            return WebRTCSignallingReply(status: 200, contentType: "application/json", body: Array(body))
        case .openAIRealtimeCalls:
            return WebRTCSignallingReply(status: 201, contentType: "application/sdp", body: Array(sdp.utf8))
        }
    }
}

/// One HTTP answer of WebRTC signalling: an SDP answer, or a refusal.
package struct WebRTCSignallingReply: Error, Sendable, Hashable {
    package var status: Int
    package var contentType: String
    package var body: [UInt8]

    package init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
