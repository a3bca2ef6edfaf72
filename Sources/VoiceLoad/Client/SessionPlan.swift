import NIOSSL

/// Everything a virtual client needs for its sessions, built once per run and shared.
public struct SessionPlan: Sendable {
    public let scenario: Scenario
    /// Where each session starts: the WebSocket, or the dialect's REST pre-step.
    public let target: ConnectionTarget
    public let headers: [HTTPHeaderField]
    /// `Sec-WebSocket-Protocol` values offered on the upgrade.
    public let subprotocols: [String]
    public let dialect: any ClientDialect
    /// TLS for wss (and an https REST step): nil for the defaults (system roots, full
    /// verification). Its context is built once, when the plan is (`ClientTLSOptions`).
    public let tlsConfiguration: TLSConfiguration?
    /// The wire frames of every clip the scenario says, by audio path.
    public let frameSets: [String: FrameSet]
    /// One frame of silence, streamed between and after clips.
    public let silenceFrame: PreparedAudio
    public let frameMs: Int
    public let trackerConfiguration: TurnTracker.Configuration
    /// Masks the plan's secrets in error examples (`Redactor(plan:)`).
    public private(set) var redactor = Redactor(secrets: [])

    /// The URL of the run for reports, secrets redacted.
    public var redactedURL: String {
        switch target {
        case .webSocket(let endpoint): return endpoint.redactedDescription
        case .rest(let endpoint, _): return endpoint.description
        }
    }

    /// Whether the server's certificate goes unchecked (`--insecure`).
    public var tlsInsecure: Bool {
        guard case .none(let options)? = tlsConfiguration?.certificateVerification else { return false }
        return !options.validatePresentedCertificates
    }

    /// What this run can measure: the dialect's metrics, the REST step's when it has one, the
    /// TLS handshake's over wss, and the interruption metrics when the scenario barges in.
    public var metricsMeasured: Set<MetricName> {
        var metrics = dialect.measures
        if case .rest = target { metrics.insert(.restSetupMs) }
        if case .webSocket(let endpoint) = target, endpoint.isSecure { metrics.insert(.tlsMs) }
        let bargeIns = ScenarioStep.flattened(scenario.steps).compactMap { step -> BargeInStep? in
            if case .bargeIn(let bargeIn) = step { return bargeIn }
            return nil
        }
        if !bargeIns.isEmpty {
            metrics.formUnion([.intAckMs, .intCutoffMs, .audioAfterAckMs])
            if dialect.cancelsResponses { metrics.insert(.intCancelMs) }
            if bargeIns.contains(where: { $0.action == .command }) { metrics.insert(.intCommandRttMs) }
        }
        if ScenarioStep.flattened(scenario.steps).contains(where: { $0.name == "finalize" }) { metrics.insert(.finalizeMs) }
        return metrics
    }

    /// The keep-alive of the run: the dialect's, at the scenario's `keepalive_ms` when it sets
    /// one (0: none).
    public var keepAlive: KeepAlivePolicy? {
        guard var policy = dialect.keepAlive else { return nil }
        if let everyMs = scenario.keepAliveMs { policy.everyMs = everyMs }
        return policy.everyMs > 0 ? policy : nil
    }

    public init(
        scenario: Scenario, target: ConnectionTarget, headers: [HTTPHeaderField], subprotocols: [String] = [], dialect: any ClientDialect,
        tlsConfiguration: TLSConfiguration?, frameSets: [String: FrameSet], silenceFrame: PreparedAudio, frameMs: Int
    ) {
        self.scenario = scenario
        self.target = target
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
        tracker.jitterBufferMs = Int64(scenario.jitterBufferMs)
        self.trackerConfiguration = tracker
        redactor = Redactor(plan: self)
    }
}

/// Where a session starts.
public enum ConnectionTarget: Sendable {
    /// Straight to the WebSocket.
    case webSocket(WebSocketEndpoint)
    /// First the dialect's REST step, whose answer names the WebSocket.
    case rest(HTTPEndpoint, RESTSetupRequest)
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
