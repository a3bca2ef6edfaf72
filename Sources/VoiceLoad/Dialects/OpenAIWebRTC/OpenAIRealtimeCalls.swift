import Foundation
import NIOCore
import WSClient

/// OpenAI Realtime's WebRTC signalling (docs/webrtc.md): one `POST /v1/realtime/calls` whose
/// body is a `multipart/form-data` form with the SDP offer (`sdp`, `application/sdp`) and the
/// session to create (`session`, JSON), as the official SDK's `client.realtime.calls.create`
/// sends it, with the key in `Authorization: Bearer`; the answer is the SDP itself
/// (`201 Created`, `application/sdp`). The request is a value here; `post` is the I/O.
package struct OpenAIRealtimeCallRequest: Sendable, Hashable {
    /// The `session` part: `{"type":"realtime","model":…}` (the rest of the session goes in the
    /// `session.update` sent on the data channel, as on the WebSocket).
    package let sessionJSON: String
    /// `Authorization: Bearer KEY` when the run has a key.
    package let headers: [HTTPHeaderField]

    /// The form's boundary: no SDP or JSON line starts with it.
    static let boundary = "vload-realtime-call-7c1f0a9e"

    package init(model: String, token: String?) {
        self.sessionJSON = JSONFrame.text(["type": "realtime", "model": .string(model)])
        var headers = [HTTPHeaderField(name: "Accept", value: "application/sdp")]
        if let token, !token.isEmpty { headers.append(HTTPHeaderField(name: "Authorization", value: "Bearer \(token)")) }
        self.headers = headers
    }

    /// The form: the `sdp` part, then the `session` part, each with its content type, as
    /// httpx writes the SDK's files (RFC 7578).
    package func body(offerSDP: String) -> [UInt8] {
        let dash = "--\(Self.boundary)\r\n"
        let text =
            dash + "Content-Disposition: form-data; name=\"sdp\"\r\nContent-Type: application/sdp\r\n\r\n" + offerSDP + "\r\n"
            + dash + "Content-Disposition: form-data; name=\"session\"\r\nContent-Type: application/json\r\n\r\n" + sessionJSON
            + "\r\n--\(Self.boundary)--\r\n"
        return Array(text.utf8)
    }

    /// Every header of the POST, the form's content type first.
    package var requestHeaders: [(String, String)] {
        [("Content-Type", "multipart/form-data; boundary=\(Self.boundary)")] + headers.map { ($0.name, $0.value) }
    }

    /// Posts the offer and reads the answer's SDP. HTTP failures are the REST step's classes
    /// (`WebSocketConnectError`); a refusal or an answer that is no SDP is an
    /// `OpenAIRealtimeCallError`.
    func post(offerSDP: String, to endpoint: HTTPEndpoint, on eventLoop: any EventLoop, timeoutMs: Int64) -> EventLoopFuture<String> {
        HTTPRequestClient.send(
            method: .POST, to: endpoint, headers: requestHeaders, body: body(offerSDP: offerSDP), on: eventLoop, timeoutMs: timeoutMs
        ).flatMapThrowing { response in try Self.answerSDP(status: response.status, body: response.body) }
    }

    /// The answer's SDP from a 200 or 201 whose body starts `v=0`; anything else is one line:
    /// the status and the error's `message` (OpenAI's `{"error":{"message":…}}`), or the body's start.
    package static func answerSDP(status: Int, body: [UInt8]) throws(OpenAIRealtimeCallError) -> String {
        guard status == 200 || status == 201 else {
            let message = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
            let detail = (message?["error"] as? [String: Any])?["message"] as? String
            throw .status(status, detail ?? SmallWebRTCSignallingError.excerpt(body))
        }
        let sdp = String(decoding: body, as: UTF8.self)
        guard sdp.hasPrefix("v=0") else { throw .notSDP(SmallWebRTCSignallingError.excerpt(body)) }
        return sdp
    }
}

/// Why `POST /v1/realtime/calls` gave no answer; each is one line.
package enum OpenAIRealtimeCallError: Error, Sendable, Hashable, CustomStringConvertible, SignallingHTTPStatus {
    case status(Int, String)
    case notSDP(String)

    package var httpStatus: Int? {
        if case .status(let code, _) = self { return code }
        return nil
    }

    package var description: String {
        switch self {
        case .status(let code, let detail): return "POST /v1/realtime/calls answered HTTP \(code): \(detail)"
        case .notSDP(let body): return "POST /v1/realtime/calls answered with no SDP: \(body)"
        }
    }
}
