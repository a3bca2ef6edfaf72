import AgentSimulator
import Foundation
import NIOPosix
import Testing
import VoiceLoad

/// OpenAI Realtime with manual turns (`turn_detection: null`) against a simulator that honours
/// it: no server VAD, the client commits each utterance and asks for the response.
@Suite("End to end: OpenAI manual turns against the simulator", .serialized)
struct ManualTurnRunTests {
    static let clients = 10
    static let latencyMs = 700
    static let frameMs = 40

    static let scenarioYAML = """
        name: manual-turns
        dialect: openai-realtime
        session:
          turn_detection: null     # the beta spelling; vload sends GA audio.input.turn_detection: null
        steps:
          - connect
          - wait: ready
          - say: \(repositoryRoot())/scenarios/audio/hello.wav
            label: first
          - wait: agent_turn_end
          - say: \(repositoryRoot())/scenarios/audio/thanks.wav
            label: second
          - wait: agent_turn_end
          - hangup
        """

    private func attempt(directory: URL) async throws -> (report: RunReport, statistics: SimulatorStatistics) {
        var settings = SimulatorConfiguration()
        settings.dialect = "openai-realtime"
        settings.replyLatency = .fixed(ms: Self.latencyMs)
        settings.replySpeed = 4
        settings.greets = false
        settings.replyDurationMs = ShortCall.replyMs  // answers of 1 s: what is measured is their start
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let simulator = try await AgentSimulator.start(configuration: settings, group: group)
        let scenarioPath = directory.appendingPathComponent("manual-turns.yaml").path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.scenarioYAML.write(toFile: scenarioPath, atomically: true, encoding: .utf8)
        let scenario = try ScenarioLoader.load(path: scenarioPath)
        let plan = try SessionPlanBuilder.build(
            scenario: scenario,
            dialect: try DialectRegistry.client("openai-realtime"),
            url: simulator.url,
            token: nil,
            frameMs: Self.frameMs
        )
        let report = try await LoadRun.execute(
            plan: plan,
            load: LoadProfile(clients: Self.clients, rampUpMs: 500),
            outputDirectory: directory.appendingPathComponent("out"),
            simulator: settings.summary,
            maxLagMs: EndToEndBound.maxLagMs,
            embeddedSimulator: simulator.figures
        )
        #expect(try schemaViolations(ofReportIn: directory.appendingPathComponent("out")) == [])
        try await simulator.stop()
        let statistics = simulator.statistics
        try await group.shutdownGracefully()
        return (report, statistics)
    }

    @Test("every turn answered after its commit; first audio timed from the end of speech and from the commit")
    func everyTurnAnswered() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-manual-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (report, statistics) = try await runValid {
            let run = try await attempt(directory: directory)
            return (run, run.report.generator)
        }
        let turns = 2 * Self.clients
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.turns == ["completed": turns])
        #expect(statistics.replies == turns)
        #expect(report.config.metricsMeasured.contains("first_audio_from_commit_ms"))
        #expect(report.metrics["first_audio_from_commit_ms"]?.count == turns)
        // The simulator answers the drawn latency after the speech it heard ended (never before
        // the commit, which comes when the clip's trailing silence has been sent).
        let p50 = try #require(report.metrics["first_audio_from_end_ms"]?.p50)
        #expect(abs(p50 - Double(Self.latencyMs)) <= Double(Self.frameMs + 5), "p50 \(p50) ms vs injected \(Self.latencyMs) ms")
        let commitP50 = try #require(report.metrics["first_audio_from_commit_ms"]?.p50)
        #expect(commitP50 < p50, "the commit follows the end of speech: \(commitP50) ms ≥ \(p50) ms")
    }
}
