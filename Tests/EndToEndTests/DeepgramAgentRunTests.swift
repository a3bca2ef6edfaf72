import AgentSimulator
import Foundation
import NIOPosix
import Testing
import VoiceLoad

/// The greeting scenario over `deepgram-agent` against the simulator speaking the same
/// dialect. An extension of `GreetingRunTests`, so it runs serialized with the other load runs.
extension GreetingRunTests {
    @Test("deepgram-agent: Welcome → Settings → SettingsApplied, then greeting and answer, in every session")
    func deepgramAgentRun() async throws {
        let clients = 20
        var settings = SimulatorConfiguration()
        settings.dialect = "deepgram-agent"
        settings.replyLatency = .fixed(ms: 700)
        settings.replySpeed = 4
        let simulatorGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let simulator = try await AgentSimulator.start(configuration: settings, group: simulatorGroup)
        let scenario = try ScenarioLoader.load(path: repositoryRoot() + "/scenarios/greeting.yaml")
        let plan = try SessionPlanBuilder.build(
            scenario: scenario, dialect: try DialectRegistry.client("deepgram-agent"), url: simulator.url,
            token: "secret-token-456", frameMs: 40
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await LoadRun.execute(
            plan: plan, load: LoadProfile(clients: clients, rampUpMs: 500), outputDirectory: directory,
            simulator: settings.summary
        )
        try await simulator.stop()
        try await simulatorGroup.shutdownGracefully()

        #expect(report.sessions.completed == clients && report.sessions.failed == 0)
        #expect(report.errors.total == 0)
        // Welcome (started) and SettingsApplied (ready) reached every client, whenever Welcome arrived.
        #expect(report.metrics["started_ms"]?.count == clients)
        #expect(report.metrics["ready_ms"]?.count == clients)
        let p50 = try #require(report.metrics["first_audio_from_end_ms"]?.p50)
        #expect(abs(p50 - 700) <= 45, "p50 \(p50) ms vs injected 700 ms")
        let json = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(!json.contains("secret-token-456"))
    }
}
