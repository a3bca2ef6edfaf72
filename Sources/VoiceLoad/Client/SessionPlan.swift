import NIOSSL

/// Everything a virtual client needs for its sessions, built once per run and shared.
public struct SessionPlan: Sendable {
    public let scenario: Scenario
    public let endpoint: WebSocketEndpoint
    public let headers: [HTTPHeaderField]
    public let dialect: any ClientDialect
    public let tlsConfiguration: TLSConfiguration?
    /// The wire frames of every clip the scenario says, by audio path.
    public let frameSets: [String: FrameSet]
    public let silenceFrame: EncodedFrame
    public let openingFrames: [EncodedFrame]
    public let stopFrame: EncodedFrame?
    public let frameMs: Int
    public let trackerConfiguration: TurnTracker.Configuration

    public init(
        scenario: Scenario, endpoint: WebSocketEndpoint, headers: [HTTPHeaderField], dialect: any ClientDialect,
        tlsConfiguration: TLSConfiguration?, frameSets: [String: FrameSet], silenceFrame: EncodedFrame, frameMs: Int
    ) {
        self.scenario = scenario
        self.endpoint = endpoint
        self.headers = headers
        self.dialect = dialect
        self.tlsConfiguration = tlsConfiguration
        self.frameSets = frameSets
        self.silenceFrame = silenceFrame
        self.openingFrames = dialect.openingFrames(parameters: scenario.sessionParameters).map(EncodedFrame.init)
        self.stopFrame = dialect.encode(.stop).map(EncodedFrame.init)
        self.frameMs = frameMs
        var tracker = TurnTracker.Configuration()
        tracker.quietMs = Int64(scenario.quietMs)
        tracker.turnEndSignal = dialect.turnEndSignal
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
