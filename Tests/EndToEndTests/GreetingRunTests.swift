import AgentSimulator
import Foundation
import NIOPosix
import Testing
import VoiceLoad

/// vload against its built-in simulator, in-process, with a known injected reply latency.
@Suite("End to end: greeting against the simulator", .serialized)
struct GreetingRunTests {
    static let clients = 50
    static let frameMs = 40

    /// Runs the greeting scenario (a short call, `ShortCall`) at 50 clients with the simulator's reply latency fixed
    /// at `latencyMs`, again while vload finds the run invalid (`runValid`).
    private func run(latencyMs: Int) async throws -> (report: RunReport, directory: URL, simulator: SimulatorStatistics) {
        // An invalid attempt's directory goes when the next attempt starts: the last one's stays
        // for the checks, whether or not it was valid.
        var previous: URL?
        return try await runValid {
            if let previous { try? FileManager.default.removeItem(at: previous) }
            let run = try await attempt(latencyMs: latencyMs)
            previous = run.directory
            return (run, run.report.generator)
        }
    }

    private func attempt(latencyMs: Int) async throws -> (report: RunReport, directory: URL, simulator: SimulatorStatistics) {
        var settings = SimulatorConfiguration()
        settings.replyLatency = .fixed(ms: latencyMs)
        settings.replySpeed = 4
        ShortCall.apply(to: &settings)
        let simulatorGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let simulator = try await AgentSimulator.start(configuration: settings, group: simulatorGroup)
        let scenario = try ScenarioLoader.load(path: ShortCall.scenarioPath)
        let plan = try SessionPlanBuilder.build(
            scenario: scenario,
            dialect: try DialectRegistry.client("datagrid"),
            url: simulator.url,
            token: "secret-token-123",
            frameMs: Self.frameMs
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-e2e-\(UUID().uuidString)")
        let report = try await LoadRun.execute(
            plan: plan,
            load: LoadProfile(clients: Self.clients, rampUpMs: 1_000),
            outputDirectory: directory,
            simulator: settings.summary,
            maxLagMs: EndToEndBound.maxLagMs,
            embeddedSimulator: simulator.figures
        )
        #expect(try schemaViolations(ofReportIn: directory) == [])
        try await simulator.stop()
        let statistics = simulator.statistics
        try await simulatorGroup.shutdownGracefully()
        return (report, directory, statistics)
    }

    @Test("50 sessions, 0 errors, every metric counted 50 times, reports on disk, no secret in them")
    func completeRun() async throws {
        let (report, directory, simulator) = try await run(latencyMs: 700)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(report.sessions.started == 50 && report.sessions.completed == 50 && report.sessions.failed == 0)
        #expect(report.errors.total == 0)
        #expect(report.turns == ["completed": 50])
        // Every metric datagrid measures over a WebSocket (no REST step here), 50 times.
        #expect(Set(report.config.metricsMeasured) == Set(DatagridClientDialect().measures.map(\.rawValue)))
        for metric in report.config.metricsMeasured {
            #expect(report.metrics[metric]?.count == 50, "\(metric)")
        }
        // The reply latency injected, 700 ms, within one frame + 5 ms (as at 1100 ms below).
        let p50 = try #require(report.metrics["first_audio_from_end_ms"]?.p50)
        #expect(abs(p50 - 700) <= Double(Self.frameMs + 5), "p50 \(p50) ms vs injected 700 ms")
        #expect(report.generator.sendLagMs.count > 0)
        #expect(report.generator.simulatorReplyLateMs?.count == 50)
        #expect(simulator.sessions == 50 && simulator.replies == 50 && simulator.interruptions == 0)

        let turns = try String(contentsOf: directory.appendingPathComponent("turns.csv"), encoding: .utf8)
        let sessions = try String(contentsOf: directory.appendingPathComponent("sessions.csv"), encoding: .utf8)
        #expect(turns.split(separator: "\n").count == 51)
        #expect(sessions.split(separator: "\n").count == 51)
        let json = try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(!json.contains("secret-token-123"))
        #expect(json.contains("token=REDACTED"))
    }

    @Test("first_audio_from_end_ms p50 follows the injected latency within one frame + 5 ms", arguments: [1_100])
    func latencyFollowsInjection(latencyMs: Int) async throws {
        let (report, directory, _) = try await run(latencyMs: latencyMs)
        defer { try? FileManager.default.removeItem(at: directory) }
        let p50 = try #require(report.metrics["first_audio_from_end_ms"]?.p50)
        let tolerance = Double(Self.frameMs + 5)
        #expect(abs(p50 - Double(latencyMs)) <= tolerance, "p50 \(p50) ms vs injected \(latencyMs) ms")
        #expect(report.metrics["first_audio_from_end_ms"]?.count == 50)
    }
}
