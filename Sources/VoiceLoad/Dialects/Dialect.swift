/// When a dialect's session is ready for user audio (PROTOCOLS.md §3, "Ready" column).
public enum ReadySignal: Sendable, Hashable {
    /// The WebSocket open itself: `T_ready = T_open`, and `ready_ms` is reported as n/a.
    case onOpen
    /// A `session.ready` event from the server.
    case event
}

/// How the end of an agent turn is known.
public enum TurnEndSignal: Sendable, Hashable {
    /// The dialect has an explicit end-of-turn event (`turn.complete` or `agent.speech_ended`).
    case event
    /// Nothing on the wire: derived from a quiet gap in agent audio plus a drained playback
    /// cursor (PROTOCOLS.md §4.5).
    case audioGap
}

/// The client side of a wire protocol: a pure codec from intents to frames and from frames
/// to normalized events. No sockets, clocks or actors.
public protocol ClientDialect: Sendable {
    /// The dialect's identifier on the command line (`datagrid`).
    var id: String { get }
    /// The format user audio must be sent in.
    var inputFormat: AudioFormat { get }
    /// The format agent audio arrives in.
    var outputFormat: AudioFormat { get }
    var readySignal: ReadySignal { get }
    var turnEndSignal: TurnEndSignal { get }
    /// How the API key travels on the upgrade request.
    var authentication: AuthenticationStyle { get }

    /// Frames to send right after the WebSocket opens (Datagrid `start`).
    func openingFrames(parameters: [String: JSONValue]) -> [WireFrame]
    /// The frame for an intent, or nil when this dialect has no such message.
    func encode(_ intent: ClientIntent) -> WireFrame?
    /// Every normalized event one inbound frame carries (possibly several, possibly none).
    func decode(_ frame: WireFrame) -> [NormalizedEvent]
}

/// Why a server-side dialect could not turn a frame into intents.
public enum DialectDecodingError: Error, Sendable, Hashable {
    /// Well-formed, but a message type this dialect does not know.
    case unknownType(String)
    /// Not parseable as this dialect's message.
    case malformed(String)
}

/// The server side of a wire protocol, used by the agent simulator.
public protocol ServerDialect: Sendable {
    var id: String { get }
    var inputFormat: AudioFormat { get }
    var outputFormat: AudioFormat { get }

    /// The intents one client frame carries.
    func decode(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent]
    /// The frame for one agent output.
    func encode(_ output: AgentOutput) -> WireFrame
}
