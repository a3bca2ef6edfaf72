import AgentSimulator
import Foundation
import NIOPosix
import Testing
import VoiceLoad

/// The shipped multi-step scenarios against the simulator, in-process: barge-ins, labelled
/// turns with think time, tool calls.
@Suite("End to end: scripted scenarios against the simulator", .serialized)
struct ScenarioRunTests {
    static let clients = 20
    static let frameMs = 40

    /// Runs `scenarioName` against a simulator of its own, again while vload finds the run
    /// invalid (`runValid`).
    private func run(
        _ scenarioName: String,
        dialect: String = "datagrid",
        clients: Int = clients,
        scenarioPath: String? = nil,
        iterations: Int = 1,
        configure: (inout SimulatorConfiguration) -> Void = { _ in }
    ) async throws -> (report: RunReport, simulator: SimulatorStatistics, settings: SimulatorConfiguration) {
        try await runValid {
            let run = try await attempt(
                scenarioName,
                dialect: dialect,
                clients: clients,
                scenarioPath: scenarioPath,
                iterations: iterations,
                configure: configure
            )
            return (run, run.report.generator)
        }
    }

    private func attempt(
        _ scenarioName: String,
        dialect: String,
        clients: Int,
        scenarioPath: String?,
        iterations: Int,
        configure: (inout SimulatorConfiguration) -> Void
    ) async throws -> (report: RunReport, simulator: SimulatorStatistics, settings: SimulatorConfiguration) {
        let scenario = try ScenarioLoader.load(path: scenarioPath ?? repositoryRoot() + "/scenarios/\(scenarioName).yaml")
        var settings = SimulatorConfiguration()
        settings.dialect = dialect
        if let value = scenario.simulatorSettings["reply_ms"]?.doubleValue { settings.replyDurationMs = Int(value) }
        if case .string(let tool)? = scenario.simulatorSettings["tool_call"] { settings.toolCall = tool }
        configure(&settings)
        try settings.validate()
        let simulatorGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let simulator = try await AgentSimulator.start(configuration: settings, group: simulatorGroup)
        let plan = try SessionPlanBuilder.build(
            scenario: scenario,
            dialect: try DialectRegistry.client(dialect),
            url: simulator.url,
            token: nil,
            frameMs: Self.frameMs
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-\(scenarioName)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await LoadRun.execute(
            plan: plan,
            load: LoadProfile(clients: clients, rampUpMs: 1_000, iterations: iterations),
            outputDirectory: directory,
            simulator: settings.summary,
            maxLagMs: EndToEndBound.maxLagMs,
            embeddedSimulator: simulator.figures
        )
        #expect(try schemaViolations(ofReportIn: directory) == [])
        try await simulator.stop()
        let statistics = simulator.statistics
        try await simulatorGroup.shutdownGracefully()
        return (report, statistics, settings)
    }

    /// The shipped interruption scenario's agent, shorter: a short greeting (`ShortCall`) and
    /// answers of 3 s instead of 8 s, still long enough to be talked over 1.5 s in.
    private static func shortInterruption(_ settings: inout SimulatorConfiguration) {
        ShortCall.apply(to: &settings)
        settings.replyDurationMs = 3_000
    }

    @Test("interruption at 20 clients: int_ack_ms p50 within R + VAD window ± one frame, none missed", arguments: [250])
    func interruption(reactionMs: Int) async throws {
        let (report, simulator, settings) = try await run("interruption") {
            Self.shortInterruption(&$0)
            $0.bargeInReactionMs = reactionMs
        }
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.interruptions.bargeIns == Self.clients && report.interruptions.missed == 0)
        #expect(simulator.interruptions == Self.clients)
        let ack = try #require(report.metrics["int_ack_ms"])
        #expect(ack.count == Self.clients)
        // The simulator hears speech once vadMinSpeechMs of it has arrived (a frame carries up
        // to one frame of delay), then waits R.
        let expected = Double(reactionMs + settings.vadMinSpeechMs)
        let p50 = try #require(ack.p50)
        #expect(abs(p50 - expected) <= Double(Self.frameMs + 5), "int_ack_ms p50 \(p50) vs \(expected)")
        // The talked-over answer is cut: its audio stops arriving, and with R > 0 some arrived after T_bi_start.
        #expect(report.metrics["int_cutoff_ms"]?.count == Self.clients)
        #expect(report.interruptions.audioAlreadyDelivered == 0)
        // Per label: the question was interrupted, the barge-in answered.
        #expect(report.turns["interrupted"] == Self.clients && report.turns["completed"] == Self.clients)
        #expect(report.labels["barge-in"]?["int_ack_ms"]?.count == Self.clients)
        #expect(report.labels["barge-in"]?["first_audio_from_end_ms"]?.count == Self.clients)
        #expect(report.labels["question"]?["first_audio_from_end_ms"]?.count == Self.clients)
        #expect(report.labels["question"]?["int_ack_ms"] == nil)
    }

    /// `barge-in.wav` speaks for 1.9 s: with a minimum of 300 ms the agent stops once its VAD has
    /// heard voiced audio 300 ms into the speech (the first such window ends 350 ms in, after a
    /// pause between words; heard up to a frame later), with 3 s never: the speech is a
    /// backchannel to it.
    @Test("--sim-barge-in-min-ms: the agent stops once the caller has spoken over it that long, never for shorter speech")
    func bargeInMinimumSpeech() async throws {
        let (stopped, stoppedAgent, _) = try await run("interruption") {
            Self.shortInterruption(&$0)
            $0.bargeInMinSpeechMs = 300
        }
        #expect(stopped.interruptions.bargeIns == Self.clients && stopped.interruptions.missed == 0)
        #expect(stoppedAgent.interruptions == Self.clients)
        let p50 = try #require(stopped.metrics["int_ack_ms"]?.p50)
        #expect(p50 >= 300 && p50 <= Double(350 + 2 * Self.frameMs), "int_ack_ms p50 \(p50)")
        let (spokeOn, spokeOnAgent, _) = try await run("interruption") {
            Self.shortInterruption(&$0)
            $0.bargeInMinSpeechMs = 3_000
        }
        #expect(spokeOnAgent.interruptions == 0)
        #expect(spokeOn.interruptions.missed == Self.clients)
        print("--sim-barge-in-min-ms 300: int_ack_ms p50 \(p50) ms; 3000: \(spokeOn.interruptions.missed) of \(Self.clients) barge-ins missed")
    }

    /// The shipped backchannel scenario, its clips by absolute path, the short question, and a
    /// cough (0.46 s, 0.36 s of it speech) for its third backchannel, written once to a temporary file.
    private static let backchannelScenario: String = {
        let root = repositoryRoot() + "/scenarios/"
        let shipped = (try? String(contentsOfFile: root + "backchannel.yaml", encoding: .utf8)) ?? ""
        let text = shipped.replacingOccurrences(of: "say: audio/hello.wav", with: "say: \(ShortCall.clipPath)")
            .replacingOccurrences(of: "okay.wav", with: "cough.wav").replacingOccurrences(of: ": audio/", with: ": \(root)audio/")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vload-backchannel-\(UUID().uuidString).yaml").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }()

    /// Three backchannels per call (mm-hmm twice: 0.92 s, 0.62 s of it speech; the cough once) over 6 s answers: an
    /// agent that stops for any speech stops for all three (and answers each, the next heard in
    /// that answer); one that needs 1 s of speech for none, and the question's first audio is
    /// the injected latency, as without them.
    @Test("backchannels: false_barge_in_rate 100 % with --sim-barge-in-min-ms 0, 0 % with 1000 and first audio unchanged")
    func backchannels() async throws {
        let clients = 8
        func run(minimumMs: Int) async throws -> (RunReport, SimulatorStatistics) {
            let (report, simulator, _) = try await self.run("backchannel", clients: clients, scenarioPath: Self.backchannelScenario) {
                ShortCall.apply(to: &$0)
                $0.replyDurationMs = 6_000  // the scenario's, which ShortCall's 1 s replaces
                $0.bargeInMinSpeechMs = minimumMs
            }
            #expect(report.errors.total == 0, "\(report.errors.byClass)")
            #expect(report.interruptions.backchannels == 3 * clients && report.interruptions.bargeIns == 0)
            return (report, simulator)
        }
        let (stopped, stoppedAgent) = try await run(minimumMs: 0)
        #expect(stopped.interruptions.backchannelsStopped == 3 * clients && stopped.interruptions.falseBargeInRatePercent == 100)
        #expect(stoppedAgent.interruptions == 3 * clients)
        #expect(stopped.turns["interrupted"] == clients)
        let (spokeOn, spokeOnAgent) = try await run(minimumMs: 1_000)
        #expect(spokeOn.interruptions.backchannelsStopped == 0 && spokeOn.interruptions.falseBargeInRatePercent == 0)
        #expect(spokeOnAgent.interruptions == 0 && spokeOn.turns["completed"] == clients)
        let firstAudio = try #require(spokeOn.labels["question"]?["first_audio_from_end_ms"])
        let p50 = try #require(firstAudio.p50)
        // The simulator answers 700 ms after the speech it heard end, which is the truth's end
        // (docs/callers.md, "One rule for what is speech"); 5 ms covers the transport and timers.
        #expect(firstAudio.count == clients && abs(p50 - 700) <= 5, "first_audio_from_end_ms p50 \(p50)")
        let (stoppedCounts, spokeOnCounts) = (stopped.interruptions, spokeOn.interruptions)
        print(
            "backchannels: min 0 ms: \(stoppedCounts.backchannelsStopped) of \(stoppedCounts.backchannels) stopped the agent; "
                + "1000 ms: \(spokeOnCounts.backchannelsStopped) of \(spokeOnCounts.backchannels); "
                + "question first_audio_from_end_ms p50 \(p50), max \(firstAudio.max ?? 0)"
        )
    }

    @Test("multi-turn: first-audio latency per labelled turn, each following the injected latency")
    func multiTurn() async throws {
        let (report, _, settings) = try await run("multi-turn") {
            $0.replySpeed = 4
            ShortCall.apply(to: &$0)
        }
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.turns["completed"] == 3 * Self.clients)
        guard case .fixed(let latencyMs) = settings.replyLatency else { return }
        for label in ["order-status", "arrival", "goodbye"] {
            let metric = try #require(report.labels[label]?["first_audio_from_end_ms"], "\(label)")
            #expect(metric.count == Self.clients, "\(label)")
            let p50 = try #require(metric.p50)
            #expect(abs(p50 - Double(latencyMs)) <= Double(Self.frameMs + 5), "\(label): p50 \(p50)")
        }
    }

    @Test("tool-call: every call answered from the scenario, the answer spoken after it")
    func toolCall() async throws {
        let (report, simulator, _) = try await run("tool-call", dialect: "openai-realtime", clients: 10) {
            $0.replySpeed = 4
            ShortCall.apply(to: &$0)
        }
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.toolCalls.calls == 10 && report.toolCalls.results == 10)
        #expect(simulator.toolCalls == 10 && simulator.toolResults == 10 && simulator.toolResultTimeouts == 0)
        #expect(report.labels["weather"]?["first_audio_from_end_ms"]?.count == 10)
    }

    @Test("an interrupt command: int_cmd_rtt_ms for every barge-in, on a row of its own")
    func interruptCommand() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("command.yaml").path
        try """
        steps:
          - connect
          - wait: ready
          - wait: greeting
          - say: \(repositoryRoot())/scenarios/audio/hello.wav
            label: question
          - barge_in: command
            after_heard_ms: 1000
            label: stop
          - hangup
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let (report, _, _) = try await run("command", clients: 10, scenarioPath: path) {
            $0.greetingWAV = ShortCall.clipPath
            $0.replyDurationMs = 6_000
            $0.bargeInReactionMs = 100
        }
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.interruptions.bargeIns == 10 && report.interruptions.missed == 0)
        let rtt = try #require(report.labels["stop"]?["int_cmd_rtt_ms"])
        #expect(rtt.count == 10)
        #expect((rtt.p50 ?? 0) >= 100 && (rtt.p50 ?? 0) <= 100 + 50, "int_cmd_rtt_ms p50 \(rtt.p50 ?? -1)")
    }

    @Test("several sessions per client: each iteration completes (a late close of the last socket is not an error)")
    func iterations() async throws {
        let (report, _, _) = try await run("greeting", clients: 4, scenarioPath: ShortCall.scenarioPath, iterations: 3) {
            $0.replySpeed = 4
            ShortCall.apply(to: &$0)
        }
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.sessions.started == 12 && report.sessions.completed == 12)
        #expect(report.metrics["first_audio_from_end_ms"]?.count == 12)
    }
}
