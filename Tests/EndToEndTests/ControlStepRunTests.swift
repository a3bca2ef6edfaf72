import AgentSimulator
import Foundation
import NIOPosix
import Testing
import VoiceLoad

/// The steps and timers that send one control message of the dialect, against the simulator:
/// Twilio `dtmf`, Deepgram `Finalize` (`finalize_ms`), and `KeepAlive` while no audio streams.
@Suite("End to end: dtmf, finalize and keep-alive against the simulator", .serialized)
struct ControlStepRunTests {
    static let clients = 4

    private func run(
        dialect id: String,
        yaml: String,
        configure: (inout SimulatorConfiguration) -> Void = { _ in }
    )
        async throws -> (report: RunReport, statistics: SimulatorStatistics)
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-control-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scenarioPath = directory.appendingPathComponent("scenario.yaml").path
        try yaml.write(toFile: scenarioPath, atomically: true, encoding: .utf8)
        return try await runValid {
            var settings = SimulatorConfiguration()
            settings.dialect = id
            settings.replySpeed = 4
            settings.greets = false
            configure(&settings)
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let simulator = try await AgentSimulator.start(configuration: settings, group: group)
            let plan = try SessionPlanBuilder.build(
                scenario: try ScenarioLoader.load(path: scenarioPath),
                dialect: try DialectRegistry.client(id),
                url: simulator.url,
                token: nil,
                frameMs: nil
            )
            let report = try await LoadRun.execute(
                plan: plan,
                load: LoadProfile(clients: Self.clients, rampUpMs: 200),
                outputDirectory: directory.appendingPathComponent("out-\(UUID().uuidString)"),
                simulator: settings.summary,
                maxLagMs: EndToEndBound.maxLagMs,
                embeddedSimulator: simulator.figures
            )
            try await simulator.stop()
            let statistics = simulator.statistics
            try await group.shutdownGracefully()
            return ((report, statistics), report.generator)
        }
    }

    @Test("dtmf: every key reaches the agent as a Twilio dtmf message, in order")
    func dtmf() async throws {
        let (report, statistics) = try await run(
            dialect: "twilio-media-streams",
            yaml: """
                name: keypad
                steps:
                  - connect
                  - dtmf: "1234#"
                    interval_ms: 50
                  - hangup
                """
        )
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.sessions.completed == Self.clients)
        #expect(statistics.dtmfDigits == String(repeating: "1234#", count: Self.clients))
    }

    @Test("finalize: the flushed result times finalize_ms for every session")
    func finalize() async throws {
        let (report, _) = try await run(
            dialect: "deepgram-stt",
            yaml: """
                name: finalize
                steps:
                  - connect
                  - say: \(repositoryRoot())/scenarios/audio/hello.wav
                  - finalize
                  - hangup
                """
        )
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.config.metricsMeasured.contains("finalize_ms"))
        #expect(report.metrics["finalize_ms"]?.count == Self.clients)
        #expect((report.metrics["finalize_ms"]?.p50 ?? .infinity) < 1_000)
    }

    @Test("keep-alive: sent while the microphone is silent, at the scenario's keepalive_ms, never while it streams")
    func keepAlive() async throws {
        let (report, statistics) = try await run(
            dialect: "deepgram-agent",
            yaml: """
                name: keepalive
                keepalive_ms: 300
                steps:
                  - connect
                  - wait: ready
                  - wait: quiet
                    ms: 1000           # about three keep-alives before the microphone opens
                  - say: \(repositoryRoot())/scenarios/audio/thanks.wav
                  - wait: agent_turn_end
                  - hangup
                """
        )
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        // Ready comes ~100 ms after the open, the quiet wait adds 1000 ms: 3 or 4 per session
        // before the microphone opens, none after (the ~3 s of speech and answer would add 10).
        let perSession = Double(statistics.keepAlives) / Double(Self.clients)
        #expect((2...5).contains(perSession), "\(statistics.keepAlives) keep-alives from \(Self.clients) sessions")
    }
}
