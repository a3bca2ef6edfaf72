/// What a `WebSocketListener` answers to an upgrade request.
package enum WebSocketUpgradeDecision: Sendable {
    /// Switch protocols. `subprotocol` is echoed in `Sec-WebSocket-Protocol` (it should be one
    /// the client offered); `headers` are added to the 101 response; `tag` is handed back on
    /// the accepted connection (`WebSocketServerConnection.tag`), e.g. the number `shouldUpgrade`
    /// gave the request.
    case accept(subprotocol: String? = nil, headers: [(name: String, value: String)] = [], tag: UInt64? = nil)
    /// Refuse with this HTTP status (e.g. 401, 403, 429, 503) and body, of this content type.
    case reject(status: Int, body: String, contentType: String = "text/plain; charset=utf-8")
}
