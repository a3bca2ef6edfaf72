import AgentSimulator
import Foundation
import NIOPosix
import Testing
import VoiceLoad

/// Every registered dialect, client side against the simulator's server side of the same dialect.
@Suite("End to end: every dialect against the simulator", .serialized)
struct DialectRunTests {
    static let clients = 20

    @Test("greeting at 20 clients: 0 errors and every metric the dialect measures", arguments: DialectRegistry.ids)
    func dialect(id: String) async throws {
        var settings = SimulatorConfiguration()
        settings.dialect = id
        settings.replySpeed = 4
        ShortCall.apply(to: &settings)
        let simulatorGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let simulator = try await AgentSimulator.start(configuration: settings, group: simulatorGroup)
        let dialect = try DialectRegistry.client(id)
        let scenario = try ScenarioLoader.load(path: ShortCall.scenarioPath)
        let plan = try SessionPlanBuilder.build(scenario: scenario, dialect: dialect, url: simulator.url, token: "t0ken", frameMs: nil)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-\(id)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await LoadRun.execute(
            plan: plan,
            load: LoadProfile(clients: Self.clients, rampUpMs: 500),
            outputDirectory: directory,
            simulator: settings.summary,
            maxLagMs: EndToEndBound.maxLagMs
        )
        #expect(try schemaViolations(ofReportIn: directory) == [], "\(id)")
        try await simulator.stop()
        try await simulatorGroup.shutdownGracefully()

        #expect(report.errors.total == 0, "\(id): \(report.errors.byClass)")
        #expect(report.sessions.completed == Self.clients, "\(id)")
        // The simulator sends user transcripts on every dialect that has them; datagrid's
        // `transcript` is undocumented, so it measures them without promising them.
        var expected = dialect.measures
        expected.subtract([.sttInterimLatencyMs, .sttFinalLatencyMs])  // per result, not per session
        for metric in expected {
            #expect(report.metrics[metric.rawValue]?.count == Self.clients, "\(id): \(metric.rawValue)")
        }
        if !dialect.repliesWithAudio {
            // Position latency of every result: at least one final result per session.
            #expect((report.metrics["stt_final_latency_ms"]?.count ?? 0) >= Self.clients, "\(id)")
            #expect((report.metrics["stt_interim_latency_ms"]?.count ?? 0) > 0, "\(id)")
            #expect(report.errors.byClass["result_before_audio"] == nil)
        }
        // Absent, never zero: metrics the dialect cannot measure have no samples.
        let userTranscripts: Set<MetricName> = [.userTranscriptFirstPartialMs, .userTranscriptFinalMs]
        for metric in MetricName.endpointMetrics where !dialect.measures.contains(metric) && !userTranscripts.contains(metric) {
            #expect(report.metrics[metric.rawValue]?.count == 0, "\(id): \(metric.rawValue) should be n/a")
        }
    }

    @Test("datagrid with its REST pre-step: rest_setup_ms for every session, the key only in the REST header")
    func datagridREST() async throws {
        var settings = SimulatorConfiguration()
        settings.replySpeed = 4
        ShortCall.apply(to: &settings)
        let simulatorGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let simulator = try await AgentSimulator.start(configuration: settings, group: simulatorGroup)
        let scenario = try ScenarioLoader.load(path: ShortCall.scenarioPath)
        let plan = try SessionPlanBuilder.build(
            scenario: scenario,
            dialect: try DialectRegistry.client("datagrid"),
            url: simulator.restURL,
            token: "secret-rest-key",
            frameMs: nil
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-rest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await LoadRun.execute(
            plan: plan,
            load: LoadProfile(clients: 10, rampUpMs: 200),
            outputDirectory: directory,
            simulator: settings.summary,
            maxLagMs: EndToEndBound.maxLagMs
        )
        try await simulator.stop()
        try await simulatorGroup.shutdownGracefully()
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.metrics["rest_setup_ms"]?.count == 10)
        #expect(report.metrics["first_audio_from_end_ms"]?.count == 10)
        let setup = try #require(report.metrics["session_setup_total_ms"]?.min)
        let rest = try #require(report.metrics["rest_setup_ms"]?.min)
        #expect(setup > rest)
        #expect(report.config.url == simulator.restURL)
        let json = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(!json.contains("secret-rest-key"))
    }

    @Test("dialects/datagrid.yaml (a custom dialect) against the datagrid simulator measures like the built-in codec")
    func customDatagrid() async throws {
        var settings = SimulatorConfiguration()
        settings.replySpeed = 4
        ShortCall.apply(to: &settings)
        let simulatorGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let simulator = try await AgentSimulator.start(configuration: settings, group: simulatorGroup)
        let dialect = try CustomDialect.load(path: repositoryRoot() + "/dialects/datagrid.yaml", environment: [:])
        let scenario = try ScenarioLoader.load(path: ShortCall.scenarioPath)
        let plan = try SessionPlanBuilder.build(scenario: scenario, dialect: dialect, url: simulator.url, token: nil, frameMs: nil)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-custom-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await LoadRun.execute(
            plan: plan,
            load: LoadProfile(clients: 10, rampUpMs: 200),
            outputDirectory: directory,
            simulator: settings.summary,
            maxLagMs: EndToEndBound.maxLagMs
        )
        try await simulator.stop()
        try await simulatorGroup.shutdownGracefully()
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.unknownEvents == 0)
        for metric in ["connect_ms", "ready_ms", "greeting_ms", "first_audio_from_end_ms", "turn_duration_ms"] {
            #expect(report.metrics[metric]?.count == 10, "\(metric)")
        }
    }

    @Test("dialects/datagrid-rest.yaml takes its REST pre-step at the simulator, then measures like the built-in codec")
    func customDatagridREST() async throws {
        var settings = SimulatorConfiguration()
        settings.replySpeed = 4
        ShortCall.apply(to: &settings)
        let simulatorGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let simulator = try await AgentSimulator.start(configuration: settings, group: simulatorGroup)
        let dialect = try CustomDialect.load(
            path: repositoryRoot() + "/dialects/datagrid-rest.yaml",
            environment: ["DATAGRID_API_KEY": "secret-rest-key"]
        )
        let scenario = try ScenarioLoader.load(path: ShortCall.scenarioPath)
        let plan = try SessionPlanBuilder.build(scenario: scenario, dialect: dialect, url: simulator.restURL, token: nil, frameMs: nil)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-custom-rest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await LoadRun.execute(
            plan: plan,
            load: LoadProfile(clients: 5, rampUpMs: 200),
            outputDirectory: directory,
            simulator: settings.summary,
            maxLagMs: EndToEndBound.maxLagMs
        )
        try await simulator.stop()
        try await simulatorGroup.shutdownGracefully()
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.unknownEvents == 0)
        for metric in ["rest_setup_ms", "connect_ms", "ready_ms", "first_audio_from_end_ms"] {
            #expect(report.metrics[metric]?.count == 5, "\(metric)")
        }
        let json = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(!json.contains("secret-rest-key"))
    }
}
