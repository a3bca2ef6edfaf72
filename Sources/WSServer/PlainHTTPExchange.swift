import NIOCore

/// Answers a plain HTTP request on its connection's event loop: the response when it is ready
/// (the simulator's `POST /api/offer` binds a socket first), or nil for a request it does not
/// serve.
package typealias PlainHTTPHandler = @Sendable (PlainHTTPRequest, any EventLoop) -> EventLoopFuture<PlainHTTPResponse>?

/// A plain (not upgraded) HTTP request to a `WebSocketListener`, for REST endpoints next to
/// the WebSocket one (the simulator's Datagrid `POST /v1/voice`).
package struct PlainHTTPRequest: Sendable {
    package var method: String
    package var target: String
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// The server's own address the request came in on (`127.0.0.1`, or an interface's for a
    /// listener on `0.0.0.0`); nil when the channel does not know it.
    package var localHost: String? = nil

    package var path: String { target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target }

    package func headerValue(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The answer to a `PlainHTTPRequest`.
package struct PlainHTTPResponse: Sendable {
    package var status: Int
    package var contentType: String
    package var body: [UInt8]

    package init(status: Int, contentType: String = "application/json", body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
