import NIOSSL

/// Everything a virtual client needs for its sessions, built once per run and shared.
public struct SessionPlan: Sendable {
    public let scenario: Scenario
    public let endpoint: WebSocketEndpoint
    public let headers: [HTTPHeaderField]
    /// `Sec-WebSocket-Protocol` values offered on the upgrade.
    public let subprotocols: [String]
    public let dialect: any ClientDialect
    public let tlsConfiguration: TLSConfiguration?
    /// The wire frames of every clip the scenario says, by audio path.
    public let frameSets: [String: FrameSet]
    /// One frame of silence, streamed between and after clips.
    public let silenceFrame: PreparedAudio
    public let frameMs: Int
    public let trackerConfiguration: TurnTracker.Configuration

    public init(
        scenario: Scenario, endpoint: WebSocketEndpoint, headers: [HTTPHeaderField], subprotocols: [String] = [],
        dialect: any ClientDialect,
        tlsConfiguration: TLSConfiguration?, frameSets: [String: FrameSet], silenceFrame: PreparedAudio, frameMs: Int
    ) {
        self.scenario = scenario
        self.endpoint = endpoint
        self.headers = headers
        self.subprotocols = subprotocols
        self.dialect = dialect
        self.tlsConfiguration = tlsConfiguration
        self.frameSets = frameSets
        self.silenceFrame = silenceFrame
        self.frameMs = frameMs
        var tracker = TurnTracker.Configuration()
        tracker.quietMs = Int64(scenario.quietMs)
        tracker.turnEndSignal = dialect.turnEndSignal
        tracker.repliesWithAudio = dialect.repliesWithAudio
        self.trackerConfiguration = tracker
    }
}

/// One HTTP header of the upgrade request.
public struct HTTPHeaderField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
