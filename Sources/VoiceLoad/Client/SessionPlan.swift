import NIOSSL
import WSClient

/// Everything a virtual client needs for its sessions, built once per run and shared.
package struct SessionPlan: Sendable {
    package let scenario: Scenario
    /// Where each session starts: the WebSocket, or the dialect's REST pre-step.
    package let target: ConnectionTarget
    package let headers: [HTTPHeaderField]
    /// `Sec-WebSocket-Protocol` values offered on the upgrade.
    package let subprotocols: [String]
    package let dialect: any ClientDialect
    /// TLS for wss (and an https REST step): nil for the defaults (system roots, full
    /// verification). Its context is built once, when the plan is (`ClientTLSOptions`).
    package let tlsConfiguration: TLSConfiguration?
    /// The wire frames of every clip the scenario says, by audio path.
    package let frameSets: [String: FrameSet]
    /// The audio varied callers are made from (`callers:`, docs/callers.md); nil: every caller
    /// speaks `frameSets`.
    package var callerAudio: CallerAudio?
    /// Where ended calls go to be recorded (`--record`, docs/recordings.md); nil: none is.
    package var recordingDesk: RecordingDesk?
    /// Where noisy callers tell the built-in simulator in this process of their noise heard
    /// alone (`NoiseWindows`, docs/callers.md); nil against any other agent.
    package var simulatorNoise: NoiseWindows?
    /// One frame of silence, streamed between and after clips.
    package let silenceFrame: PreparedAudio
    package let frameMs: Int
    package let trackerConfiguration: TurnTracker.Configuration
    /// Masks the plan's secrets in error examples (`Redactor(plan:)`).
    package private(set) var redactor = Redactor(secrets: [])

    /// The URL of the run for reports, secrets redacted.
    package var redactedURL: String {
        switch target {
        case .webSocket(let endpoint): return endpoint.redactedDescription
        case .rest(let endpoint, _): return endpoint.description
        case .webRTC(let target): return target.offerEndpoint.description
        }
    }

    /// Whether the server's certificate goes unchecked (`--insecure`).
    package var tlsInsecure: Bool {
        guard case .none(let options)? = tlsConfiguration?.certificateVerification else { return false }
        return !options.validatePresentedCertificates
    }

    /// What this run can measure: the dialect's metrics, the REST step's when it has one, the
    /// TLS handshake's over wss, and the interruption metrics when the scenario barges in.
    package var metricsMeasured: Set<MetricName> {
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
    package var keepAlive: KeepAlivePolicy? {
        guard var policy = dialect.keepAlive else { return nil }
        if let everyMs = scenario.keepAliveMs { policy.everyMs = everyMs }
        return policy.everyMs > 0 ? policy : nil
    }

    package init(
        scenario: Scenario,
        target: ConnectionTarget,
        headers: [HTTPHeaderField],
        subprotocols: [String] = [],
        dialect: any ClientDialect,
        tlsConfiguration: TLSConfiguration?,
        frameSets: [String: FrameSet],
        silenceFrame: PreparedAudio,
        frameMs: Int
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
        tracker.countsTurnResumes = dialect.measures.contains(.eagerEndOfTurnMs)
        tracker.jitterBufferMs = Int64(scenario.jitterBufferMs)
        self.trackerConfiguration = tracker
        redactor = Redactor(plan: self)
    }
}

/// Where a session starts.
package enum ConnectionTarget: Sendable {
    /// Straight to the WebSocket.
    case webSocket(WebSocketEndpoint)
    /// First the dialect's REST step, whose answer names the WebSocket.
    case rest(HTTPEndpoint, RESTSetupRequest)
    /// A WebRTC call: the SDP offer posted to the signalling URL (docs/webrtc.md).
    case webRTC(WebRTCCallTarget)
}

/// One HTTP header of the upgrade request.
package struct HTTPHeaderField: Sendable, Hashable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
