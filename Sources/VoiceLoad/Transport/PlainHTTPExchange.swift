/// A plain (not upgraded) HTTP request to a `WebSocketListener`, for REST endpoints next to
/// the WebSocket one (the simulator's Datagrid `POST /v1/voice`).
public struct PlainHTTPRequest: Sendable {
    public var method: String
    public var target: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public var path: String { target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target }

    public func headerValue(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The answer to a `PlainHTTPRequest`.
public struct PlainHTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]

    public init(status: Int, contentType: String = "application/json", body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
