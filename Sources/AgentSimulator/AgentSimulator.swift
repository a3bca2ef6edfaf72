import NIOCore
import NIOPosix
import VoiceLoad

/// The built-in voice agent: a WebSocket server speaking the server side of a dialect, with
/// a ready delay, an energy VAD on the caller's audio, replies after a configurable latency,
/// and barge-in handling. `vload` runs it in-process when no `--url` is given.
public final class AgentSimulator: Sendable {
    public let configuration: SimulatorConfiguration
    public let port: Int
    private let listener: WebSocketListener
    private let tally: SimulatorTally

    private init(configuration: SimulatorConfiguration, listener: WebSocketListener, tally: SimulatorTally) {
        self.configuration = configuration
        self.listener = listener
        self.port = listener.port
        self.tally = tally
    }

    /// Starts listening on `host:port` (port 0 picks a free one).
    public static func start(
        configuration: SimulatorConfiguration, host: String = "127.0.0.1", port: Int = 0, group: any EventLoopGroup
    ) async throws -> AgentSimulator {
        try configuration.validate()
        let dialect: any ServerDialect
        do {
            dialect = try DialectRegistry.server(configuration.dialect)
        } catch {
            throw InputError(error.description)
        }
        let audio = try ReplyAudio(configuration: configuration, dialect: dialect)
        let tally = SimulatorTally()
        // Without a capacity model no count is read at all.
        let slowdown: @Sendable () -> Double
        if configuration.workers == nil {
            slowdown = { 1.0 }
        } else {
            slowdown = { configuration.slowdown(openSessions: tally.sessionsOpen) }
        }
        let listener = try await WebSocketListener.start(
            host: host, port: port, group: group,
            shouldUpgrade: { _ in .accept() },
            onConnection: { connection in
                let number = tally.sessionOpened()
                let driver = SimulatorConnection(
                    connection: connection, dialect: dialect, audio: audio,
                    configuration: configuration, sessionNumber: number,
                    slowdown: slowdown,
                    onFinish: { statistics in tally.sessionEnded(statistics) }
                )
                driver.attach()
            },
            plainHTTP: { request in Self.restSession(request, dialect: dialect, tally: tally) }
        ).get()
        return AgentSimulator(configuration: configuration, listener: listener, tally: tally)
    }

    /// The dialect's REST pre-step, where it has one (Datagrid `POST /v1/voice`): the answer
    /// points at this simulator's WebSocket with a hand-off token.
    private static func restSession(_ request: PlainHTTPRequest, dialect: any ServerDialect, tally: SimulatorTally) -> PlainHTTPResponse? {
        guard request.method == "POST", request.path == restPath, let host = request.headerValue("Host") else { return nil }
        let url = "ws://\(host)/ws/voice?token=sim-handoff-\(tally.nextHandoffNumber())"
        guard let body = dialect.restSessionResponse(requestBody: request.body, webSocketURL: url) else {
            return PlainHTTPResponse(status: 400, contentType: "text/plain", body: Array("bad session request".utf8))
        }
        return PlainHTTPResponse(status: 200, body: body)
    }

    /// Where the REST pre-step is served (Datagrid's path).
    public static let restPath = "/v1/voice"

    /// The REST pre-step URL, for dialects that have one.
    public var restURL: String { "http://127.0.0.1:\(port)\(Self.restPath)" }

    /// The URL clients connect to.
    public var url: String { "ws://127.0.0.1:\(port)/ws/voice" }

    /// What the simulator did in the sessions that have ended so far.
    public var statistics: SimulatorStatistics { tally.totals }

    public func stop() async throws {
        try await listener.close().get()
    }
}
