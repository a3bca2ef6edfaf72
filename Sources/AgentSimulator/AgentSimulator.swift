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
        let listener = try await WebSocketListener.start(
            host: host, port: port, group: group,
            shouldUpgrade: { _ in .accept() },
            onConnection: { connection in
                let number = tally.nextSessionNumber()
                let driver = SimulatorConnection(
                    connection: connection, dialect: dialect, audio: audio,
                    configuration: configuration, sessionNumber: number,
                    onFinish: { statistics in tally.add(statistics) }
                )
                driver.attach()
            }
        ).get()
        return AgentSimulator(configuration: configuration, listener: listener, tally: tally)
    }

    /// The URL clients connect to.
    public var url: String { "ws://127.0.0.1:\(port)/ws/voice" }

    /// What the simulator did in the sessions that have ended so far.
    public var statistics: SimulatorStatistics { tally.totals }

    public func stop() async throws {
        try await listener.close().get()
    }
}
