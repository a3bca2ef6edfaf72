import WSCore

/// The HTTP upgrade request a `WebSocketListener` received, as its `shouldUpgrade` sees it.
package struct WebSocketUpgradeRequest: Sendable {
    /// The request target: path and query, as sent (`/v1/realtime?model=x`).
    package var target: String
    /// The request headers in the order received.
    package var headers: [(name: String, value: String)]

    package init(target: String, headers: [(name: String, value: String)]) {
        self.target = target
        self.headers = headers
    }

    /// The path part of the target (before `?`).
    package var path: String {
        String(target[..<(target.firstIndex(of: "?") ?? target.endIndex)])
    }

    /// The raw query after `?`, nil when there is none.
    package var query: String? {
        target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
    }

    /// The first value of a header (name compared case-insensitively).
    package func headerValue(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// The percent-decoded value of the first query parameter with this name.
    package func queryValue(named name: String) -> String? {
        query.flatMap { URLQuery.value(of: name, in: $0) }
    }

    /// The subprotocols the client offered in `Sec-WebSocket-Protocol`, in order.
    package var subprotocols: [String] {
        let lowered = "sec-websocket-protocol"
        return headers.filter { $0.name.lowercased() == lowered }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
