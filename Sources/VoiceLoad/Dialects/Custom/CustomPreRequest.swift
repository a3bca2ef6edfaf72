/// The optional REST step of a custom dialect (`connect.pre_request`, docs/custom-dialects.md),
/// read and validated at load time with `${env.NAME}` resolved. Every session takes it
/// before its WebSocket, timed as `rest_setup_ms`; `capture` lifts values from the JSON answer
/// into `${var.NAME}` variables for that session's templates, and a captured `ws_url` is
/// where the session connects.
package struct CustomPreRequest: Sendable {
    /// The variable naming the WebSocket URL to connect to, when the step captures it.
    package static let webSocketURLVariable = "ws_url"

    /// `GET`, `POST`…
    package var method: String
    /// `pre_request.url`: an http(s) URL, used when the run's URL is a WebSocket URL.
    package var url: String
    /// Header names and values, in file order.
    package var headers: [(String, String)]
    /// The JSON body, when the step declares one.
    package var jsonBody: String?
    /// Variables lifted from the JSON answer: name and path (`session_id` ← `$.id`).
    package var captures: [(name: String, path: FramePath)]

    package init(method: String, url: String, headers: [(String, String)], jsonBody: String?, captures: [(name: String, path: FramePath)]) {
        self.method = method
        self.url = url
        self.headers = headers
        self.jsonBody = jsonBody
        self.captures = captures
    }

    /// The names of the captured variables, in file order.
    package var capturedNames: [String] { captures.map(\.name) }

    /// Whether the answer's `ws_url` is captured.
    package var capturesWebSocketURL: Bool { capturedNames.contains(Self.webSocketURLVariable) }

    /// The request: the headers as written, plus `Content-Type: application/json` for a JSON
    /// body that does not set one.
    package var request: RESTSetupRequest {
        var fields = headers.map { HTTPHeaderField(name: $0.0, value: $0.1) }
        if jsonBody != nil, !fields.contains(where: { $0.name.lowercased() == "content-type" }) {
            fields.append(HTTPHeaderField(name: "Content-Type", value: "application/json"))
        }
        return RESTSetupRequest(method: method, headers: fields, body: Array((jsonBody ?? "").utf8))
    }

    /// The variables `capture` lifts from `responseBody`; nil when there are captures and the
    /// answer is not JSON. A path that selects nothing (or `null`) leaves its variable unset.
    package func capturedVariables(from responseBody: [UInt8]) -> [String: JSONValue]? {
        guard !captures.isEmpty else { return [:] }
        let answer = InboundFrame(.text(String(decoding: responseBody, as: UTF8.self)), parsesBinaryAsJSON: true, needsRawText: true)
        guard answer.json != nil else { return nil }
        var variables: [String: JSONValue] = [:]
        for (name, path) in captures {
            if let value = path.first(in: answer), value != .null {
                variables[name] = value
            }
        }
        return variables
    }
}
