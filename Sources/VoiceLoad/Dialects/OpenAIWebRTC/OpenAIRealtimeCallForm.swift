import Foundation

/// `POST /v1/realtime/calls` as the server reads it (the simulator's side of
/// `OpenAIRealtimeCallRequest`, docs/webrtc.md): a key in `Authorization: Bearer`, and either
/// the SDK's `multipart/form-data` form (an `sdp` part and an optional `session` part, a JSON
/// object; RFC 7578) or the bare SDP as `application/sdp`, as a browser posts it with an
/// ephemeral key. What is wrong is refused as the API refuses it: 401 without a key, 400 with
/// OpenAI's `{"error": {"message", "type", "param", "code"}}` for a bad form.
package struct OpenAIRealtimeCallForm: Sendable, Hashable {
    /// The caller's SDP offer.
    package var offerSDP: String
    /// The `session` part's object; nil when the form has none (or the body is bare SDP).
    package var session: [String: JSONValue]?

    package init(headers: [(name: String, value: String)], body: [UInt8]) throws(OpenAIRealtimeCallRefusal) {
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        let authorization = header("Authorization") ?? ""
        let key = authorization.hasPrefix("Bearer ") ? authorization.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces) : ""
        guard !key.isEmpty else { throw .missingKey }
        let contentType = header("Content-Type") ?? ""
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch mediaType {
        case "application/sdp":
            offerSDP = String(decoding: body, as: UTF8.self)
            session = nil
        case "multipart/form-data":
            guard let boundary = Self.boundary(in: contentType) else {
                throw .badRequest("The multipart/form-data content type names no boundary.", param: nil)
            }
            let parts = Self.parts(of: String(decoding: body, as: UTF8.self), boundary: boundary)
            offerSDP = parts["sdp"] ?? ""
            if let text = parts["session"] {
                guard case .object(let object)? = try? JSONValue.parse(Array(text.utf8)) else {
                    throw .badRequest("The 'session' part is not a JSON object.", param: "session")
                }
                session = object
            } else {
                session = nil
            }
        default:
            throw .badRequest(
                "Unsupported content type '\(contentType)': post multipart/form-data with 'sdp' and 'session', or application/sdp.",
                param: nil)
        }
        guard !offerSDP.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .badRequest("Missing required parameter: 'sdp'.", param: "sdp")
        }
    }

    /// The `boundary` parameter of a multipart content type, unquoted.
    static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Each part's content by its `Content-Disposition` name, for the parts between the
    /// delimiter lines `--boundary` and the closing `--boundary--` (RFC 2046 §5.1.1); a part
    /// without a name is skipped, and of two with one name the first is kept.
    static func parts(of body: String, boundary: String) -> [String: String] {
        var parts: [String: String] = [:]
        // Every delimiter but the first follows a CRLF that belongs to it.
        let sections = ("\r\n" + body).components(separatedBy: "\r\n--" + boundary).dropFirst()
        for section in sections {
            guard !section.hasPrefix("--") else { break }
            guard let split = section.range(of: "\r\n\r\n") else { continue }
            let head = section[section.startIndex..<split.lowerBound]
            guard let name = head.split(separator: "\r\n").lazy.compactMap(Self.dispositionName).first, parts[name] == nil else { continue }
            parts[name] = String(section[split.upperBound...])
        }
        return parts
    }

    /// The `name` of a `Content-Disposition: form-data; name="…"` header line.
    private static func dispositionName(_ line: Substring) -> String? {
        let pair = line.split(separator: ":", maxSplits: 1)
        guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { return nil }
        for parameter in pair[1].split(separator: ";").dropFirst() {
            let field = parameter.split(separator: "=", maxSplits: 1)
            guard field.count == 2, field[0].trimmingCharacters(in: .whitespaces) == "name" else { continue }
            let value = field[1].trimmingCharacters(in: .whitespaces)
            return value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
        }
        return nil
    }
}

/// Why `POST /v1/realtime/calls` is refused, worded as the API words it.
package struct OpenAIRealtimeCallRefusal: Error, Sendable, Hashable {
    package var status: Int
    package var message: String
    package var param: String?
    package var code: String?

    /// No key, or an empty one: the API's 401.
    package static let missingKey = OpenAIRealtimeCallRefusal(
        status: 401,
        message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth "
            + "(i.e. Authorization: Bearer YOUR_KEY).",
        param: nil, code: nil)

    /// A form the API cannot read: 400, naming the parameter when there is one.
    package static func badRequest(_ message: String, param: String?) -> OpenAIRealtimeCallRefusal {
        OpenAIRealtimeCallRefusal(status: 400, message: message, param: param, code: nil)
    }

    /// `{"error": {"code", "message", "param", "type": "invalid_request_error"}}`, keys sorted.
    package var reply: WebRTCSignallingReply {
        let error: [String: JSONValue] = [
            "message": .string(message), "type": "invalid_request_error", "param": param.map(JSONValue.string) ?? .null,
            "code": code.map(JSONValue.string) ?? .null,
        ]
        return WebRTCSignallingReply(status: status, contentType: "application/json", body: Array(JSONFrame.text(["error": .object(error)]).utf8))
    }
}
