import NIOCore
import NIOPosix
import Synchronization
import WSClient
import WSCore
import WSServer

@testable import VoiceLoad

/// A client dialect for tests of the virtual client's error handling: binary frames are agent
/// audio (PCM16 16 kHz); text frames are script lines: `end` (the agent's turn is over),
/// `error CODE MESSAGE` (an in-band error); any other text is a malformed frame.
struct ScriptedDialect: BinaryPCMTestDialect {
    var turnEndSignal: TurnEndSignal = .event
    var authentication: AuthenticationStyle = .none
    var id: String { "scripted" }
    var readySignal: ReadySignal { .onOpen }

    func framesOnOpen() -> [WireFrame] { [] }
    func frames(for intent: ClientIntent) -> [WireFrame] { [] }
    func receive(_ frame: WireFrame) -> DecodedFrame {
        switch frame {
        case .binary(let bytes):
            return [.agentAudio(AgentAudioChunk(audio: bytes, format: outputFormat))]
        case .text("end"):
            return [.turnComplete(turnKey: nil)]
        case .text(let line) where line.hasPrefix("error "):
            let parts = line.split(separator: " ", maxSplits: 2)
            return [.error(code: String(parts[1]), message: parts.count > 2 ? String(parts[2]) : "", fatal: false)]
        case .text:
            return [.malformed(reason: "not a script line")]
        }
    }

    /// 40 ms of PCM16 16 kHz: a square wave at `amplitude` (0 is digital silence).
    static func audio(amplitude: Int16) -> WireFrame {
        var bytes: [UInt8] = []
        for index in 0..<640 {
            let sample = index % 20 < 10 ? amplitude : -amplitude
            bytes += [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)]
        }
        return .binary(bytes)
    }
}

/// The session rows a run hands out.
final class SessionRows: RowSink {
    private let rows = Mutex<[SessionRecord]>([])
    var sessions: [SessionRecord] { rows.withLock { $0 } }
    func write(_ turn: TurnRecord) {}
    func write(_ session: SessionRecord) { rows.withLock { $0.append(session) } }
}

/// One session of a virtual client against a loopback server that sends `script` right after
/// the upgrade. Returns what the recorder holds afterwards, and the session's row.
func runScriptedSession(
    _ script: [WireFrame],
    steps: [ScenarioStep],
    dialect: ScriptedDialect = ScriptedDialect(),
    quietMs: Int = 100,
    headers: [HTTPHeaderField] = [],
    query: String = ""
) async throws -> (snapshot: Recorder.Snapshot, session: SessionRecord?) {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    do {
        let listener = try await WebSocketListener.start(
            port: 0,
            group: group,
            shouldUpgrade: { _ in .accept() },
            onConnection: { connection in
                connection.setEventHandler { _ in }
                for frame in script { connection.send(EncodedFrame(frame)) }
            }
        ).get()
        let endpoint = try WebSocketEndpoint(parsing: "ws://127.0.0.1:\(listener.port)/\(query)")
        let scenario = Scenario(name: "scripted", sourcePath: "scripted.yaml", quietMs: quietMs, steps: steps)
        let plan = SessionPlan(
            scenario: scenario,
            target: .webSocket(endpoint),
            headers: headers,
            dialect: dialect,
            tlsConfiguration: nil,
            frameSets: [:],
            silenceFrame: dialect.prepareAudio([UInt8](repeating: 0, count: 1_280)),
            frameMs: 40
        )
        let rows = SessionRows()
        let recorder = Recorder(rowSink: rows)
        let client = VirtualClient(index: 0, plan: plan, recorder: recorder, eventLoop: group.next())
        await client.runSession(iteration: 0)
        try await listener.close().get()
        try await group.shutdownGracefully()
        return (recorder.snapshot(), rows.sessions.first)
    } catch {
        try await group.shutdownGracefully()
        throw error
    }
}
