import Foundation
import NIOCore
import WSClient

/// Pipecat's SmallWebRTC signalling (docs/webrtc.md): one `POST /api/offer` with the offer as
/// JSON, answered with JSON, as pipecat-ai 1.14's runner serves it (`SmallWebRTCRequestHandler`).
/// The request and the answer are values here; `post` is the I/O.
package enum SmallWebRTCSignalling {
    /// Sends `offer` to `endpoint` (the bot's `…/api/offer`) and reads the answer. HTTP failures
    /// are the REST step's classes (`WebSocketConnectError`); a wrong answer is a
    /// `SmallWebRTCSignallingError`.
    package static func post(
        _ offer: SmallWebRTCOffer, to endpoint: HTTPEndpoint, on eventLoop: any EventLoop, timeoutMs: Int64 = 10_000
    ) -> EventLoopFuture<SmallWebRTCAnswer> {
        HTTPRequestClient.send(
            method: .POST, to: endpoint, headers: [("Content-Type", "application/json")], body: offer.body, on: eventLoop,
            timeoutMs: timeoutMs
        ).flatMapThrowing { response in try SmallWebRTCAnswer(status: response.status, body: response.body) }
    }
}

/// The request body: pipecat's `SmallWebRTCRequest` fields `sdp`, `type` ("offer"), `pc_id` (a
/// previous answer's, to renegotiate that connection; absent for a new one) and `restart_pc`
/// (with `pc_id`: close that connection and start over).
package struct SmallWebRTCOffer: Sendable, Hashable, Encodable {
    package var sdp: String
    package var type = "offer"
    package var pcID: String?
    package var restartPC: Bool

    package init(sdp: String, pcID: String? = nil, restartPC: Bool = false) {
        self.sdp = sdp
        self.pcID = pcID
        self.restartPC = restartPC
    }

    enum CodingKeys: String, CodingKey {
        case sdp, type
        case pcID = "pc_id"
        case restartPC = "restart_pc"
    }

    /// The JSON body, keys sorted.
    package var body: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, an optional string and a Bool always encode.
        return Array((try? encoder.encode(self)) ?? Data())
    }
}

/// The answer: `handle_web_request`'s `{"sdp", "type": "answer", "pc_id"}`.
package struct SmallWebRTCAnswer: Sendable, Hashable {
    package var sdp: String
    /// The bot's name for this connection, for a later renegotiation.
    package var pcID: String

    /// Reads an HTTP response; anything but a 200 with that JSON is a one-line typed error.
    package init(status: Int, body: [UInt8]) throws(SmallWebRTCSignallingError) {
        guard status == 200 else { throw .status(status, SmallWebRTCSignallingError.excerpt(body)) }
        struct Wire: Decodable {
            var sdp: String
            var type: String
            var pc_id: String
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(body))
        } catch {
            throw .malformed(SmallWebRTCSignallingError.excerpt(body))
        }
        guard wire.type == "answer" else { throw .notAnAnswer(wire.type) }
        self.sdp = wire.sdp
        self.pcID = wire.pc_id
    }
}

/// Why the offer got no usable answer; each is one line.
package enum SmallWebRTCSignallingError: Error, Sendable, Hashable, CustomStringConvertible, SignallingHTTPStatus {
    case status(Int, String)
    case malformed(String)
    case notAnAnswer(String)

    package var httpStatus: Int? {
        if case .status(let code, _) = self { return code }
        return nil
    }

    package var description: String {
        switch self {
        case .status(let code, let body): return "SmallWebRTC offer answered HTTP \(code): \(body)"
        case .malformed(let body): return "SmallWebRTC answer is not JSON with sdp, type and pc_id: \(body)"
        case .notAnAnswer(let type): return "SmallWebRTC answer has type \"\(type)\", not \"answer\""
        }
    }

    /// The body's first 120 characters on one line, for the error.
    static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(120), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return text.isEmpty ? "(empty body)" : text
    }
}
