/// When the server side of a dialect considers the session started.
package enum ServerSessionStart: Sendable, Hashable {
    /// As soon as the socket opens (ADK, Deepgram STT, Smallest).
    case onOpen
    /// When the client's start intent arrives (Datagrid `start`, OpenAI `session.update`,
    /// Deepgram `Settings`, Twilio `start`).
    case onClientStart
}

/// The server side of a wire protocol, used by the agent simulator.
package protocol ServerDialect: Sendable {
    var id: String { get }
    var inputFormat: AudioFormat { get }
    var outputFormat: AudioFormat { get }
    var sessionStart: ServerSessionStart { get }

    /// One chunk of agent audio (in `outputFormat`), prepared once and shared by every session.
    func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio
    /// A codec for one connection; `target` is the upgrade request's path and query.
    func makeCodec(target: String) -> any ServerCodec
    /// Whether the agent answers with speech (false for speech-to-text: it answers with
    /// `speechResult`s).
    var speaks: Bool { get }
    /// Whether the client runs the agent's tools and must answer each call with its result
    /// (OpenAI `function_call_output`, Deepgram `FunctionCallResponse`); false when tools run
    /// on the server, as on Datagrid and ADK.
    var awaitsToolResults: Bool { get }
    /// The REST pre-step's response to a request body, for dialects that have one; the
    /// session is then reached at `webSocketURL`.
    func restSessionResponse(requestBody: [UInt8], webSocketURL: String) -> [UInt8]?
    /// The close a session opened with these upgrade headers gets at once, as the provider
    /// refuses it (OpenAI's 4000 `beta_api_shape_disabled`); nil for a session served.
    func refusal(requestHeaders: [(name: String, value: String)]) -> ServerRefusal?
    /// A clip's frames prepared in order, for an encoder that carries state from one frame to
    /// the next (Opus); each frame alone (`prepareAudio`) on most dialects.
    func prepareClip(_ frames: [[UInt8]]) -> [PreparedAudio]
    /// How a WebRTC caller's offer comes and is answered (docs/webrtc.md); nil for a dialect
    /// whose sessions come over a WebSocket.
    var webRTCSignalling: WebRTCOfferSignalling? { get }
}

/// How the server side of a dialect refuses a session right after the open: its close.
package struct ServerRefusal: Sendable, Hashable {
    package var code: Int
    package var reason: String
}

extension ServerDialect {
    package var speaks: Bool { true }

    package var awaitsToolResults: Bool { false }

    package func restSessionResponse(requestBody: [UInt8], webSocketURL: String) -> [UInt8]? { nil }

    package func refusal(requestHeaders: [(name: String, value: String)]) -> ServerRefusal? { nil }

    package func prepareClip(_ frames: [[UInt8]]) -> [PreparedAudio] { frames.map(prepareAudio) }

    package var webRTCSignalling: WebRTCOfferSignalling? { nil }

    /// Whether sessions come over WebRTC rather than a WebSocket.
    package var carriesOverWebRTC: Bool { webRTCSignalling != nil }
}
