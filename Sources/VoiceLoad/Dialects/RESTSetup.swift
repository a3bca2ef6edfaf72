/// The REST step some dialects take before their WebSocket (Datagrid `POST /v1/voice`,
/// PROTOCOLS.md §4.1 option B), used when the URL given is http(s). Timed as `rest_setup_ms`.
public struct RESTSetupRequest: Sendable, Hashable {
    public var method: String
    public var headers: [HTTPHeaderField]
    public var body: [UInt8]

    public init(method: String, headers: [HTTPHeaderField], body: [UInt8]) {
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// What the REST step returned: where to connect and what to send first.
public struct RESTSetup: Sendable, Hashable {
    /// The WebSocket URL, often with a short-lived token in it.
    public var webSocketURL: String
    /// Frames to send right after the open, instead of the codec's own (Datagrid's
    /// `start_message`, verbatim).
    public var openingFrames: [WireFrame]

    public init(webSocketURL: String, openingFrames: [WireFrame]) {
        self.webSocketURL = webSocketURL
        self.openingFrames = openingFrames
    }
}
