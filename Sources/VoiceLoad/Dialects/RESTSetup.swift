import WSCore

/// The REST step some dialects take before their WebSocket (Datagrid `POST /v1/voice`,
/// docs/dialects.md, used when the URL given is http(s); a custom dialect's
/// `connect.pre_request`). Timed as `rest_setup_ms`.
package struct RESTSetupRequest: Sendable, Hashable {
    package var method: String
    package var headers: [HTTPHeaderField]
    package var body: [UInt8]
    /// The run's own WebSocket URL, when the run has one besides the REST step's address (a
    /// custom dialect's `pre_request` at its own address): where to connect when the answer
    /// names nowhere.
    package var webSocketURL: String?

    package init(method: String, headers: [HTTPHeaderField], body: [UInt8], webSocketURL: String? = nil) {
        self.method = method
        self.headers = headers
        self.body = body
        self.webSocketURL = webSocketURL
    }
}

/// What the REST step returned: where to connect, what to send first, and what later frames
/// may use.
package struct RESTSetup: Sendable, Hashable {
    /// The WebSocket URL, often with a short-lived token in it.
    package var webSocketURL: String
    /// Frames to send right after the open instead of the codec's own (Datagrid's
    /// `start_message`, verbatim); nil to send the codec's own.
    package var openingFrames: [WireFrame]?
    /// Values lifted from the answer for the codec's templates (a custom dialect's
    /// `pre_request.capture`, read as `${var.NAME}`), handed over by `ClientCodec.adoptRESTSetup`.
    package var variables: [String: JSONValue]

    package init(webSocketURL: String, openingFrames: [WireFrame]?, variables: [String: JSONValue] = [:]) {
        self.webSocketURL = webSocketURL
        self.openingFrames = openingFrames
        self.variables = variables
    }
}
