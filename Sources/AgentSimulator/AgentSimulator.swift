import NIOCore
import NIOPosix
import VoiceLoad
import WSCore
import WSServer
import WebRTC

/// The built-in voice agent: a WebSocket server speaking the server side of a dialect, with
/// a ready delay, an energy VAD on the caller's audio, replies after a configurable latency,
/// barge-in handling and injected faults (`FaultPlan`). `vload` runs it in-process when no
/// `--url` is given.
///
/// Sessions are numbered in the order of their upgrade requests; a session whose fault is
/// `refuse` is answered with that HTTP status and a small JSON body, and never opens.
package final class AgentSimulator: Sendable {
    package let configuration: SimulatorConfiguration
    package let port: Int
    /// Whether it serves TLS (wss://, https://).
    package let isSecure: Bool
    /// Where a WebRTC dialect's callers post their offers (`/api/offer`, `/v1/realtime/calls`,
    /// docs/webrtc.md); nil when sessions come over the WebSocket.
    package let offerPath: String?
    /// The key a caller presents where the signalling asks for one (OpenAI's Bearer key, which
    /// the simulator takes whatever it is, but not empty); nil where none is asked.
    package let callerKey: String?
    private let listener: WebSocketListener
    private let tally: SimulatorTally

    private init(
        configuration: SimulatorConfiguration, listener: WebSocketListener, tally: SimulatorTally, isSecure: Bool,
        signalling: WebRTCOfferSignalling?
    ) {
        self.offerPath = signalling?.path
        self.callerKey = signalling == .openAIRealtimeCalls ? Self.simulatorKey : nil
        self.configuration = configuration
        self.listener = listener
        self.port = listener.port
        self.tally = tally
        self.isSecure = isSecure
    }

    /// Starts listening on `host:port` (port 0 picks a free one); with `tls`, over TLS only.
    /// `noise`: where the run in this process tells of its callers' noise heard alone (docs/callers.md).
    package static func start(
        configuration requested: SimulatorConfiguration,
        host: String = "127.0.0.1",
        port: Int = 0,
        group: any EventLoopGroup,
        tls: ServerTLS? = nil,
        noise: NoiseWindows? = nil
    ) async throws -> AgentSimulator {
        try requested.validate()
        let dialect: any ServerDialect
        do {
            dialect = try DialectRegistry.server(requested.dialect)
        } catch {
            throw InputError(error.description)
        }
        let configuration = try Self.fitted(requested, to: dialect)
        let audio = try ReplyAudio(configuration: configuration, dialect: dialect)
        let faults = configuration.faults
        let faultFrames = FaultFrames(plan: faults)
        let replyFaults = faults.turnFaults.isEmpty ? nil : ReplyFaultDrawer(plan: faults, seed: configuration.seed)
        let tally = SimulatorTally()
        // One relaxed atomic load; 1 without a capacity model (`workers` nil).
        let slowdown: @Sendable () -> Double = { configuration.slowdown(openSessions: tally.sessionsOpen) }
        let pacers = FramePacers(group: group)
        let startedAt = MonotonicInstant.now()
        // A WebRTC dialect's first call would otherwise start libsrtp2 (and NSS under it), DTLS
        // and usrsctp on its loop: 40-65 ms that made its reply late (`WebRTCWarmUp`).
        if dialect.webRTCSignalling != nil { WebRTCWarmUp.run() }
        let webRTC = try dialect.webRTCSignalling.map { signalling in
            SimulatorWebRTCAnswerer(
                signalling: signalling, configuration: configuration, dialect: dialect, audio: audio,
                idleSilencePacket: IdleSilence.packet(for: dialect), pacers: pacers, startedAt: startedAt, replyFaults: replyFaults,
                identity: try DTLSIdentity(srtpProfiles: configuration.srtpProfiles ?? SRTPProfile.offered),
                tally: tally, noise: noise, decoderLagSamples: WebRTCCallerAudio.lookaheadSamples, slowdown: slowdown)
        }
        let listener = try await WebSocketListener.start(
            host: host,
            port: port,
            group: group,
            shouldUpgrade: { _ in
                if let signalling = dialect.webRTCSignalling {
                    return .reject(status: 404, body: "\(dialect.id) comes over WebRTC: POST \(signalling.path)", contentType: "text/plain")
                }
                if let outage = configuration.outageMs, outage.contains(Int(MonotonicInstant.now().milliseconds(since: startedAt))) {
                    tally.faultInjected(.refuse(status: 503))
                    return .reject(status: 503, body: Self.refusalBody(status: 503), contentType: "application/json")
                }
                let number = tally.nextSessionNumber()
                if case .refuse(let status)? = faults.sessionFault(sessionNumber: number, seed: configuration.seed) {
                    tally.faultInjected(.refuse(status: status))
                    return .reject(status: status, body: Self.refusalBody(status: status), contentType: "application/json")
                }
                return .accept(tag: number)
            },
            onConnection: { connection in
                tally.sessionOpened()
                let driver = SimulatorConnection(
                    connection: connection,
                    dialect: dialect,
                    audio: audio,
                    faultFrames: faultFrames,
                    configuration: configuration,
                    sessionNumber: connection.tag ?? 0,
                    replyFaults: replyFaults,
                    noise: noise,
                    pacer: pacers.pacer(for: connection.eventLoop),
                    slowdown: slowdown,
                    onFinish: { statistics, replyLatenessUs in tally.sessionEnded(statistics, replyLatenessUs: replyLatenessUs) }
                )
                driver.attach()
            },
            plainHTTP: { request, eventLoop in
                if let webRTC { return webRTC.answer(request, on: eventLoop) }
                return Self.restSession(request, dialect: dialect, tally: tally, secure: tls != nil).map { eventLoop.makeSucceededFuture($0) }
            },
            tls: tls
        ).get()
        return AgentSimulator(
            configuration: configuration, listener: listener, tally: tally, isSecure: tls != nil, signalling: dialect.webRTCSignalling)
    }

    /// The dialect's REST pre-step, where it has one (Datagrid `POST /v1/voice`): the answer
    /// points at this simulator's WebSocket with a hand-off token.
    private static func restSession(
        _ request: PlainHTTPRequest,
        dialect: any ServerDialect,
        tally: SimulatorTally,
        secure: Bool
    ) -> PlainHTTPResponse? {
        guard request.method == "POST", request.path == restPath, let host = request.headerValue("Host") else { return nil }
        let url = "\(secure ? "wss" : "ws")://\(host)/ws/voice?token=sim-handoff-\(tally.nextHandoffNumber())"
        guard let body = dialect.restSessionResponse(requestBody: request.body, webSocketURL: url) else {
            return PlainHTTPResponse(status: 400, contentType: "text/plain", body: Array("bad session request".utf8))
        }
        return PlainHTTPResponse(status: 200, body: body)
    }

    /// The key `callerKey` gives: a run with no `--url` and no `--token` presents it.
    static let simulatorKey = "sk-vload-simulator"

    /// Where the REST pre-step is served (Datagrid's path).
    package static let restPath = "/v1/voice"

    /// The REST pre-step URL, for dialects that have one.
    package var restURL: String { "\(isSecure ? "https" : "http")://127.0.0.1:\(port)\(Self.restPath)" }

    /// The URL clients connect to: the WebSocket, or for a WebRTC dialect the HTTP root its
    /// callers post their offers under (`offerPath`).
    package var url: String {
        offerPath != nil ? "\(isSecure ? "https" : "http")://127.0.0.1:\(port)" : "\(isSecure ? "wss" : "ws")://127.0.0.1:\(port)/ws/voice"
    }

    /// The configuration as `dialect` plays it: over WebRTC the reply goes as 20 ms Opus frames,
    /// and injected faults are refused (they are not played over WebRTC yet, docs/webrtc.md).
    private static func fitted(_ configuration: SimulatorConfiguration, to dialect: any ServerDialect) throws(InputError)
        -> SimulatorConfiguration
    {
        guard dialect.carriesOverWebRTC else {
            guard configuration.srtpProfiles == nil else {
                throw InputError("--sim-srtp-profiles applies to a WebRTC dialect's simulator (pipecat-webrtc, openai-realtime-webrtc), not to \(dialect.id)'s")
            }
            return configuration
        }
        var fitted = configuration
        fitted.replyChunkMs = OpusClip.frameMs
        return fitted
    }

    /// What the simulator did in the sessions that have ended so far (and the upgrades it refused).
    package var statistics: SimulatorStatistics { tally.totals }

    /// How late the replies of the sessions that have ended so far (since the last `runFigures`)
    /// started: from when each was due (the end of the user's speech plus the drawn latency) to
    /// when the simulator's timer fired. Near zero on a machine with CPU to spare; when the
    /// simulator shares the machine with a tester that saturates it, this lateness is added to
    /// every measured latency.
    package var replyLateness: LatencyHistogram { tally.replyLateness }

    /// What a run's report takes from this simulator once the run's clients are gone: waits
    /// (at most `settleTimeoutMs`) for its sessions to end, then gives the faults it injected
    /// (with a fault plan; 0 for a planned fault that did not strike) and how late its replies
    /// started, both since the last call, so that each step of a capacity search has its own.
    /// `settled` is false when sessions were still open.
    package func runFigures(settleTimeoutMs: Int = 10_000) async -> (figures: EmbeddedSimulatorFigures, settled: Bool) {
        let settled = await settle(timeoutMs: settleTimeoutMs)
        let taken = tally.takeSinceLastTake()
        let figures = EmbeddedSimulatorFigures(
            faultsInjected: configuration.faults.isEmpty && configuration.outageMs == nil ? nil : withPlannedFaults(taken.faultsInjected),
            replyLateness: taken.replyLateness
        )
        return (figures, settled)
    }

    /// The faults performed so far (in sessions that have ended, and refused upgrades), by
    /// `InjectedFault.countKey`, with 0 for every fault of the plan that has not struck.
    /// Call `settle` first for a run's totals.
    package var faultsInjected: [String: Int] { withPlannedFaults(tally.totals.faultsInjected) }

    /// `counts` with 0 for every fault of the plan that is not among them.
    private func withPlannedFaults(_ counts: [String: Int]) -> [String: Int] {
        let zeros = Dictionary(configuration.faults.faults.map { ($0.countKey, 0) }) { first, _ in first }
        return zeros.merging(counts, uniquingKeysWith: +)
    }

    /// Waits until every open session has ended (the clients are gone and the simulator has
    /// seen their sockets close), so `statistics` and `faultsInjected` are complete; at most
    /// `timeoutMs`. False when sessions were still open then.
    @discardableResult
    package func settle(timeoutMs: Int) async -> Bool {
        let deadline = MonotonicInstant.now().advanced(byMilliseconds: Int64(timeoutMs))
        while tally.sessionsOpen > 0 {
            guard MonotonicInstant.now() < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// The body of a refused upgrade, or of a refused WebRTC offer (`refused: "offer"`).
    static func refusalBody(status: Int, refused: String = "upgrade") -> String {
        #"{"error":{"code":"\#(InjectedFault.errorCode)","status":\#(status),"message":"\#(InjectedFault.errorMessage): \#(refused) refused"}}"#
    }

    package func stop() async throws {
        try await listener.close().get()
    }
}
