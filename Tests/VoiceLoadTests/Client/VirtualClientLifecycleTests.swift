import Foundation
import NIOCore
import NIOPosix
import Synchronization
import TestSupport
import Testing
import WSCore
import WSServer

@testable import VoiceLoad

/// Virtual clients against a loopback agent that stalls, refuses or ends on cue: wind-down
/// (signal and drain limit) and the reconnect policy, end to end within the library.
@Suite("Virtual client: wind-down and reconnects", .serialized, .timeLimit(.minutes(1)))
struct VirtualClientLifecycleTests {
    /// Connect, then wait for a quiet minute the agent never ends: only a wind-down or a
    /// failure ends the session in time.
    static let stalling = """
        steps:
          - connect
          - wait: quiet
            ms: 60000
            timeout_ms: 120000
          - hangup

        """

    private func plan(_ yaml: String, agent: TestAgent) throws -> SessionPlan {
        let scenario = try ScenarioLoader.parse(yaml: yaml, path: "lifecycle.yaml")
        return try SessionPlanBuilder.build(scenario: scenario, dialect: StopDialect(), url: agent.url, token: nil, frameMs: nil)
    }

    @Test(
        "a wound-down session sends the dialect's stop, closes 1000 (by its deadline when no end comes) and is interrupted",
        arguments: [true, false]
    )
    func windDown(agentAnswersStop: Bool) async throws {
        try await withGroup { group in
            let agent = try await TestAgent.start(on: group, answersStop: agentAnswersStop)
            let rows = SessionRows()
            let recorder = Recorder(rowSink: rows)
            let client = VirtualClient(index: 0, plan: try plan(Self.stalling, agent: agent), recorder: recorder, eventLoop: group.next())
            async let session: Bool = client.runSession(iteration: 0)
            try await eventually { agent.texts == ["hello"] }  // the client has its connection
            // Without an answer to the stop, the hang-up ends at the deadline (well within the test's limit).
            await client.windDown(deadline: .now().advanced(byMilliseconds: agentAnswersStop ? 30_000 : 200))
            _ = await session
            try await eventually { agent.closeCodes == [1000] }
            #expect(agent.texts == ["hello", "stop"])
            let record = try #require(rows.sessions.first)
            #expect(record.outcome == .woundDown && record.errorClass == nil && record.attempts == 1)
            let snapshot = recorder.snapshot()
            #expect(snapshot.sessionsWoundDown == 1 && snapshot.sessionsFailed == 0 && snapshot.errors.isEmpty)
            // A client wound down starts no step of a later session either.
            await client.runSession(iteration: 1)
            #expect(rows.sessions.last?.outcome == .woundDown && agent.connections == 1)
            try await agent.stop()
        }
    }

    @Test("a wind-down does not wait for an upgrade the server never answers")
    func windDownDuringConnect() async throws {
        try await withGroup { group in
            // Accepts TCP connections and says nothing.
            let silent = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
            let port = try #require(silent.localAddress?.port)
            let yaml = "steps:\n  - connect:\n    timeout_ms: 60000\n  - hangup\n"
            let scenario = try ScenarioLoader.parse(yaml: yaml, path: "lifecycle.yaml")
            let plan = try SessionPlanBuilder.build(
                scenario: scenario,
                dialect: StopDialect(),
                url: "ws://127.0.0.1:\(port)/",
                token: nil,
                frameMs: nil
            )
            let rows = SessionRows()
            let recorder = Recorder(rowSink: rows)
            let client = VirtualClient(index: 0, plan: plan, recorder: recorder, eventLoop: group.next())
            async let session: Bool = client.runSession(iteration: 0)
            try await eventually { recorder.snapshot().sessionsStarted == 1 }
            await client.windDown(deadline: .now().advanced(byMilliseconds: 1_000))
            _ = await session
            #expect(rows.sessions.first?.outcome == .woundDown && rows.sessions.first?.connectUs == nil)
            #expect(recorder.snapshot().errors.isEmpty)
            try await silent.close()
        }
    }

    @Test("reconnects until the attempts are spent: every failure an error, the session failed on its last attempt")
    func exhausted() async throws {
        try await withGroup { group in
            let agent = try await TestAgent.start(on: group, closingFirst: .max)
            let rows = SessionRows()
            let recorder = Recorder(rowSink: rows)
            let yaml = Self.stalling + "reconnect: {attempts: 2, backoff_ms: 1}\n"
            let client = VirtualClient(index: 0, plan: try plan(yaml, agent: agent), recorder: recorder, eventLoop: group.next())
            await client.runSession(iteration: 0)
            #expect(agent.connections == 3)
            let record = try #require(rows.sessions.first)
            #expect(record.outcome == .failed && record.errorClass == "closed_by_server_1011" && record.attempts == 3)
            let snapshot = recorder.snapshot()
            #expect(snapshot.sessionsStarted == 1 && snapshot.sessionsFailed == 1)
            #expect(snapshot.errors == ["closed_by_server_1011": 3])
            #expect(snapshot.reconnects == expectedCounts(attempts: 2, exhausted: 1, byClass: ["closed_by_server_1011": 2]))
            try await agent.stop()
        }
    }

    @Test("a session the agent drops once recovers on its reconnect: completed, two attempts, one error")
    func recovered() async throws {
        try await withGroup { group in
            let agent = try await TestAgent.start(on: group, closingFirst: 1, speaks: true)
            let rows = SessionRows()
            let recorder = Recorder(rowSink: rows)
            let yaml = """
                steps:
                  - connect
                  - wait: agent_audio
                    timeout_ms: 60000
                  - hangup
                reconnect: {attempts: 3, backoff_ms: 1}

                """
            let client = VirtualClient(index: 0, plan: try plan(yaml, agent: agent), recorder: recorder, eventLoop: group.next())
            await client.runSession(iteration: 0)
            #expect(agent.connections == 2)
            let record = try #require(rows.sessions.first)
            #expect(record.outcome == .completed && record.attempts == 2 && record.connectUs != nil)
            let snapshot = recorder.snapshot()
            #expect(snapshot.sessionsCompleted == 1 && snapshot.errors == ["closed_by_server_1011": 1])
            #expect(snapshot.reconnects == expectedCounts(attempts: 1, recovered: 1, byClass: ["closed_by_server_1011": 1]))
            try await agent.stop()
        }
    }

    @Test("a wind-down wakes the backoff: no further attempt, the session interrupted, nothing exhausted")
    func windDownDuringBackoff() async throws {
        try await withGroup { group in
            let agent = try await TestAgent.start(on: group, closingFirst: .max)
            let rows = SessionRows()
            let recorder = Recorder(rowSink: rows)
            let yaml = Self.stalling + "reconnect: {attempts: 3, backoff_ms: 60000}\n"
            let client = VirtualClient(index: 0, plan: try plan(yaml, agent: agent), recorder: recorder, eventLoop: group.next())
            async let session: Bool = client.runSession(iteration: 0)
            try await eventually { recorder.snapshot().reconnects.attempts == 1 }
            await client.windDown(deadline: .now().advanced(byMilliseconds: 1_000))
            _ = await session
            #expect(agent.connections == 1)
            let record = try #require(rows.sessions.first)
            #expect(record.outcome == .woundDown && record.attempts == 2)
            #expect(recorder.snapshot().reconnects == expectedCounts(attempts: 1, byClass: ["closed_by_server_1011": 1]))
            try await agent.stop()
        }
    }

    @Test("a time-bounded run winds down the sessions still open at its drain limit; the report is not interrupted")
    func drainLimit() async throws {
        try await withGroup { group in
            let agent = try await TestAgent.start(on: group)
            // Both sessions open at the start and stall past the end (0.5 s) and the drain limit (0.5 s more).
            var load = LoadProfile(clients: 2, durationMs: 500)
            load.drainMs = 500
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-drain-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let report = try await LoadRun.execute(
                plan: try plan(Self.stalling, agent: agent),
                load: load,
                outputDirectory: directory,
                simulator: nil,
                threads: 1,
                interruption: RunInterruption(graceMs: 10_000)
            )
            #expect(report.sessions.started == 2 && report.sessions.interrupted == 2 && report.sessions.failed == 0)
            #expect(!report.interrupted && report.interruptedBy == nil && report.config.drainMs == 500)
            #expect(report.errors.total == 0 && agent.texts.filter { $0 == "stop" }.count == 2)
            let data = try Data(contentsOf: directory.appendingPathComponent("report.json"))
            #expect(try JSONSchemaValidator.reportSchema().violations(of: data) == [])
            let sessions = try String(contentsOf: directory.appendingPathComponent("sessions.csv"), encoding: .utf8)
            #expect(sessions.split(separator: "\n").dropFirst().allSatisfy { $0.contains(",interrupted,") && $0.hasSuffix(",1,,,,,,,,,,") })
            try await agent.stop()
        }
    }

    @Test("a signal winds the run down: interrupted report; until it is written, a forced exit writes report.json as it stands")
    func signal() async throws {
        try await withGroup { group in
            // The agent ignores the stop, so the sessions stay in their hang-up until it closes them.
            let agent = try await TestAgent.start(on: group, answersStop: false)
            let interruption = RunInterruption(graceMs: 60_000)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-signal-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let sessionPlan = try plan(Self.stalling, agent: agent)
            async let run = LoadRun.execute(
                plan: sessionPlan,
                load: LoadProfile(clients: 3, iterations: 2),
                outputDirectory: directory,
                simulator: nil,
                threads: 1,
                interruption: interruption
            )
            try await eventually { agent.texts.filter { $0 == "hello" }.count == 3 }  // every client has its connection
            #expect(interruption.receive(.sigint) != .exitNow(code: 130))
            try await eventually { agent.texts.filter { $0 == "stop" }.count == 3 }  // every session is hanging up
            interruption.writeForcedExitReport()
            let forcedData = try Data(contentsOf: directory.appendingPathComponent("report.json"))
            #expect(try JSONSchemaValidator.reportSchema().violations(of: forcedData) == [])
            let forced = try RunReport.decode(from: forcedData)
            #expect(forced.interrupted && forced.interruptedBy == .sigint && forced.sessions.started == 3)
            agent.closeAll()
            let report = try await run
            #expect(report.interrupted && report.interruptedBy == .sigint)
            #expect(report.sessions.started == 3 && report.sessions.interrupted == 3 && report.errors.total == 0)
            #expect(report.config.drainMs == nil)
            try await agent.stop()
        }
    }

    private func expectedCounts(attempts: Int, recovered: Int = 0, exhausted: Int = 0, byClass: [String: Int]) -> ReconnectCounts {
        var counts = ReconnectCounts()
        counts.attempts = attempts
        counts.recovered = recovered
        counts.exhausted = exhausted
        counts.byClass = byClass
        return counts
    }

    /// Waits (polling) until `condition` holds; the suite's time limit bounds it.
    private func eventually(_ condition: () -> Bool) async throws {
        while !condition() { try await Task.sleep(for: .milliseconds(5)) }
    }
}

/// A dialect that says `hello` once connected, whose stop is the text `stop` and whose
/// end-of-session event is the text `bye`; binary frames are agent audio.
struct StopDialect: BinaryPCMTestDialect {
    var id: String { "stop-test" }
    var readySignal: ReadySignal { .onOpen }
    var turnEndSignal: TurnEndSignal { .audioGap }
    var authentication: AuthenticationStyle { .none }
    func framesOnOpen() -> [WireFrame] { [.text("hello")] }
    func frames(for intent: ClientIntent) -> [WireFrame] {
        if case .stop = intent { return [.text("stop")] }
        return []
    }
    func receive(_ frame: WireFrame) -> DecodedFrame {
        switch frame {
        case .binary(let bytes): return [.agentAudio(AgentAudioChunk(audio: bytes, format: outputFormat))]
        case .text("bye"): return [.sessionEnded(reason: nil)]
        default: return []
        }
    }
}

/// A loopback agent: closes its first `closingFirst` connections at once with 1011, answers
/// `stop` with `bye` (or not), sends a chunk of audio on connect when it `speaks`, and notes
/// what it received.
final class TestAgent: Sendable {
    private struct Log {
        var open: [WebSocketServerConnection] = []
        var connections = 0
        var texts: [String] = []
        var closeCodes: [Int?] = []
    }

    private let log = Mutex(Log())
    private let listener = Mutex<WebSocketListener?>(nil)

    var connections: Int { log.withLock { $0.connections } }
    var texts: [String] { log.withLock { $0.texts } }
    var closeCodes: [Int?] { log.withLock { $0.closeCodes } }
    var url: String { "ws://127.0.0.1:\(listener.withLock { $0?.port ?? 0 })/" }

    static func start(
        on group: any EventLoopGroup,
        closingFirst: Int = 0,
        answersStop: Bool = true,
        speaks: Bool = false
    ) async throws -> TestAgent {
        let agent = TestAgent()
        let listener = try await WebSocketListener.start(
            port: 0,
            group: group,
            shouldUpgrade: { _ in .accept() },
            onConnection: { connection in agent.accept(connection, closingFirst: closingFirst, answersStop: answersStop, speaks: speaks) }
        ).get()
        agent.listener.withLock { $0 = listener }
        return agent
    }

    private func accept(_ connection: WebSocketServerConnection, closingFirst: Int, answersStop: Bool, speaks: Bool) {
        let number = log.withLock { log in
            log.connections += 1
            log.open.append(connection)
            return log.connections
        }
        connection.setEventHandler { [self] event in
            switch event {
            case .frame(let frame):
                guard case .text(let text) = frame.frame else { return }
                log.withLock { $0.texts.append(text) }
                if text == "stop", answersStop { connection.send(EncodedFrame(.text("bye"))) }
            case .closed(let code, _, _):
                log.withLock { $0.closeCodes.append(code) }
            case .failed:
                break
            }
        }
        if number <= closingFirst {
            connection.close(code: 1011, reason: "test agent drops the call")
        } else if speaks {
            connection.eventLoop.execute { connection.send(EncodedFrame(.binary([UInt8](repeating: 0, count: 1_280)))) }
        }
    }

    /// Closes every connection (1000).
    func closeAll() {
        for connection in log.withLock({ $0.open }) { connection.close(code: 1000) }
    }

    func stop() async throws {
        try await listener.withLock { $0 }?.close().get()
    }
}
