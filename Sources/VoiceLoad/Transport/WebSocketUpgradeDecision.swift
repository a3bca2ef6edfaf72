/// What a `WebSocketListener` answers to an upgrade request.
public enum WebSocketUpgradeDecision: Sendable {
    /// Switch protocols. `subprotocol` is echoed in `Sec-WebSocket-Protocol` (it should be one
    /// the client offered); `headers` are added to the 101 response.
    case accept(subprotocol: String? = nil, headers: [(name: String, value: String)] = [])
    /// Refuse with this HTTP status (e.g. 401, 403, 429, 503) and a plain-text body.
    case reject(status: Int, body: String)
}
