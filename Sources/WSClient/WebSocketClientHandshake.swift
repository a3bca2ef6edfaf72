import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The client side of the RFC 6455 opening handshake, without I/O: the upgrade request to
/// send and the verdict on the server's response head.
package struct WebSocketClientHandshake {
    /// What the response head says about the upgrade.
    package enum Verdict: Equatable {
        /// A valid 101: the connection is a WebSocket now.
        case accepted(subprotocol: String?)
        /// Any status other than 101; the body is still to come.
        case rejected(status: Int)
        /// A 101 that is not a valid WebSocket upgrade.
        case invalid(String)
    }

    package let endpoint: WebSocketEndpoint
    package let headers: [(String, String)]
    package let subprotocols: [String]
    package let requestKey: String
    /// NIO's upgrader knows how to check `Sec-WebSocket-Accept` (SHA-1 of key + GUID); it is
    /// used only for that check.
    private let acceptKeyCheck: NIOWebSocketClientUpgrader

    package init(
        endpoint: WebSocketEndpoint,
        headers: [(String, String)],
        subprotocols: [String],
        requestKey: String = NIOWebSocketClientUpgrader.randomRequestKey()
    ) {
        self.endpoint = endpoint
        self.headers = headers
        self.subprotocols = subprotocols
        self.requestKey = requestKey
        self.acceptKeyCheck = NIOWebSocketClientUpgrader(requestKey: requestKey) { channel, _ in
            channel.eventLoop.makeSucceededVoidFuture()
        }
    }

    /// The `GET` upgrade request: Host, Upgrade, Connection, key, version, subprotocols, then
    /// the caller's headers (a caller's `Host` replaces the default one).
    package func requestHead() -> HTTPRequestHead {
        var fields = HTTPHeaders()
        fields.add(name: "Host", value: endpoint.hostHeader)
        fields.add(name: "Upgrade", value: "websocket")
        fields.add(name: "Connection", value: "Upgrade")
        fields.add(name: "Sec-WebSocket-Key", value: requestKey)
        fields.add(name: "Sec-WebSocket-Version", value: "13")
        if !subprotocols.isEmpty {
            fields.add(name: "Sec-WebSocket-Protocol", value: subprotocols.joined(separator: ", "))
        }
        for (name, value) in headers {
            if name.lowercased() == "host" {
                fields.replaceOrAdd(name: "Host", value: value)
            } else {
                fields.add(name: name, value: value)
            }
        }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: endpoint.requestTarget, headers: fields)
    }

    /// Judges the response head.
    ///
    /// A 101 must carry `Upgrade: websocket`, a `Connection` with `upgrade`, the right
    /// `Sec-WebSocket-Accept`, and a subprotocol (if any) that was offered. A server that picks
    /// no subprotocol although some were offered is accepted (`subprotocol` nil).
    package func evaluate(_ response: HTTPResponseHead) -> Verdict {
        guard response.status == .switchingProtocols else {
            return .rejected(status: Int(response.status.code))
        }
        let upgrade = response.headers[canonicalForm: "upgrade"].map { $0.lowercased() }
        guard upgrade.contains("websocket") else {
            return .invalid("101 without 'Upgrade: websocket'")
        }
        let connection = response.headers[canonicalForm: "connection"].map { $0.lowercased() }
        guard connection.contains("upgrade") else {
            return .invalid("101 without 'Connection: upgrade'")
        }
        guard acceptKeyCheck.shouldAllowUpgrade(upgradeResponse: response) else {
            return .invalid("missing or wrong Sec-WebSocket-Accept")
        }
        let chosen = response.headers[canonicalForm: "sec-websocket-protocol"].map(String.init)
        switch chosen.count {
        case 0:
            return .accepted(subprotocol: nil)
        case 1 where subprotocols.contains(chosen[0]):
            return .accepted(subprotocol: chosen[0])
        default:
            return .invalid("server selected subprotocol '\(chosen.joined(separator: ","))' that was not offered")
        }
    }
}
