import AgentSimulator
import ArgumentParser
import Foundation
import NIOCore
import VoiceLoad

/// `vload run` (the default): a swarm of virtual clients plays a scenario against an endpoint.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario with many concurrent virtual clients and report latencies (the default command).",
        discussion: """
            Thresholds (--threshold, and the scenario's 'thresholds:' list) are judged on the whole \
            run after --warmup; a verdict table follows the summary. Exit codes: 0 every threshold \
            passed; 1 a threshold failed, or --baseline found a regression; 2 bad input; 3 the run \
            is invalid (generator saturated, or a threshold had no samples, or too few for its \
            percentile on both sides of its bound: all on one side pass or fail it); 4 infrastructure failure (no session reached the endpoint). On SIGINT or \
            SIGTERM vload starts no more sessions, lets the open ones hang up within --grace, writes \
            the reports (interrupted: true) and exits 130 or 143; a second signal exits at once.
            """
    )

    @Option(help: "Scenario name (looked up as scenarios/NAME.yaml) or path to a scenario YAML file.")
    var scenario = "greeting"

    @Option(help: "Number of concurrent virtual clients (the closed model; default 1).")
    var clients: Int?

    @Option(name: .customLong("ramp-up"), help: "Spread client starts over this duration (e.g. 10s).")
    var rampUp = "0s"

    @Option(help: "Sessions each client runs one after another (default 1; not with --duration).")
    var iterations: Int?

    @Option(help: "Keep starting sessions until this much time has passed (e.g. 2m); not with --iterations.")
    var duration: String?

    @Option(
        name: .customLong("arrival-rate"),
        help: ArgumentHelp(
            "Open model: start sessions at this rate whatever the endpoint does, e.g. 5/s, 300/m or 2.5 (per second). "
                + "Needs --duration, or rate --stages (then it is their starting rate).",
            valueName: "rate"
        )
    )
    var arrivalRate: String?

    @Option(name: .customLong("arrivals"), help: "Open model: how starts are spaced, poisson (the default) or uniform.")
    var arrivalProcess: String?

    @Option(
        name: .customLong("max-in-flight"),
        help: ArgumentHelp(
            "Open model: the most sessions open at once (default 1000); a start beyond it is dropped and counted, never delayed.",
            valueName: "n"
        )
    )
    var maxInFlight: Int?

    @Option(
        help: ArgumentHelp(
            "Staged load: DURATION:TARGET pairs, each ramping linearly from the previous target (0 before the first): "
                + "clients ('30s:50,2m:50,30s:0') or an arrival rate ('1m:10/s,5m:10/s'). Overrides the scenario's 'stages:'.",
            valueName: "stages"
        )
    )
    var stages: String?

    @Option(
        help: ArgumentHelp(
            "A time-bounded run (--duration, --stages, --arrival-rate): how long sessions still open at its end may go on "
                + "before they are wound down like an interrupted run's (default 30s).",
            valueName: "duration"
        )
    )
    var drain: String?

    @Option(
        name: .customLong("retry-backoff"),
        help: ArgumentHelp(
            "Closed and staged models: after a session that failed before it was ready, a client waits a random time "
                + "up to MIN·2^(n−1) (at most MAX) after its n-th such failure in a row, before its next session; "
                + "a session that gets ready resets n. '0' for none. Default 100ms..5s.",
            valueName: "min..max"
        )
    )
    var retryBackoff: String?

    @Option(
        help: ArgumentHelp(
            "On SIGINT or SIGTERM: how long open sessions get to hang up cleanly before they are closed (a second signal exits at once).",
            valueName: "duration"
        )
    )
    var grace = "5s"

    @Option(
        help: ArgumentHelp(
            "Run only this process's share i of n of the load (clients, arrival rate, stages); 'vload merge' combines the n reports.",
            valueName: "i/n"
        )
    )
    var segment: String?

    @Option(
        help: ArgumentHelp(
            "Event-loop threads that run the virtual clients (default: one per core). With --url and a simulator on the same machine, 1 leaves it a core.",
            valueName: "n"
        )
    )
    var threads: Int?

    @Option(
        name: [.customLong("max-lag-ms"), .customLong("max-send-lag-ms")],
        help: ArgumentHelp(
            "The run is invalid (exit 3) when the p99 of the generator's send lag (frames left late), of its receive lag "
                + "(replies read late by a busy event loop) or of the built-in simulator's reply lateness exceeds this "
                + "(default: 2). --max-send-lag-ms is the older name. "
                + "Latency is only as accurate as the generator is punctual: BENCHMARKS.md relates the two.",
            valueName: "ms"
        )
    )
    var maxLagMs: Double?

    @OptionGroup
    var endpoint: EndpointOptions

    @Option(help: "Directory for the reports (default: reports/<scenario>-<UTC time>).")
    var out: String?

    @Option(
        name: .customLong("threshold"),
        help: ArgumentHelp(
            "A pass/fail bound on the run (repeatable; added to the scenario's 'thresholds:'), e.g. "
                + "'first_audio_from_end_ms.p95 < 900', 'first_audio_from_end_ms{label=arrival}.p50 <= 800ms', 'error_rate < 1%'. "
                + "Grammar: METRIC[{label=L}][.count|rate|mean|min|max|pN] OP NUMBER[ms|s|%].",
            valueName: "expr"
        )
    )
    var thresholds: [String] = []

    @Flag(
        name: .customLong("no-default-thresholds"),
        help: ArgumentHelp(
            "With no threshold from the scenario or --threshold, a run is judged by 'error_rate < 1%' (shown as the default "
                + "in the verdict table); this turns that off, and such a run passes unless no session completed."
        )
    )
    var noDefaultThresholds = false

    @Option(help: "Leave out of metrics and thresholds every session and turn that starts within this time of the run's start (e.g. 10s).")
    var warmup: String?

    @Option(
        help: ArgumentHelp(
            "Compare the run with this earlier report.json (as 'vload compare' does); a regression exits 1.",
            valueName: "report.json"
        )
    )
    var baseline: String?

    @Option(help: "With --baseline: how much worse a percentile may get before it can count as a regression.")
    var tolerance = "10%"

    @OptionGroup
    var recordOptions: RecordOptions

    @OptionGroup(title: "Live progress and metrics")
    var live: LiveOptions

    @OptionGroup(title: "Callers like people (docs/callers.md)")
    var callers: CallerOptions

    @OptionGroup(title: "Built-in simulator (only without --url)")
    var simulator: SimulatorOptions

    func validate() throws {
        if let maxLagMs, !(maxLagMs > 0 && maxLagMs <= 60_000) {
            throw ValidationError("--max-lag-ms must be above 0 and at most 60000 (got \(maxLagMs))")
        }
        if let threads, !(1...256).contains(threads) {
            throw ValidationError("--threads must be 1–256 (got \(threads))")
        }
        if let clients, !(1...100_000).contains(clients) {
            throw ValidationError("--clients must be between 1 and 100000 (got \(clients))")
        }
        if let maxInFlight, !(1...100_000).contains(maxInFlight) {
            throw ValidationError("--max-in-flight must be between 1 and 100000 (got \(maxInFlight))")
        }
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1 (got \(iterations))") }
        try endpoint.check(simulator: simulator)
    }

    func run() async throws {
        let recording = try recordOptions.policy()
        let scenarioPath = try ScenarioLoader.locateForCommandLine(scenario)
        let scenario = try callers.applied(to: ScenarioLoader.loadForCommandLine(path: scenarioPath))
        let load = try loadOptions.profile(scenario: scenario)
        let graceMs = try DurationText.milliseconds(grace, option: "--grace")
        if !load.segment.isWhole, baseline != nil {
            throw InputError("--baseline cannot be used with --segment: compare the merged report (vload compare)")
        }
        let gate = try RunGate(
            scenario: scenario,
            thresholds: thresholds,
            warmup: warmup,
            baseline: baseline,
            tolerance: tolerance,
            defaultThresholds: !noDefaultThresholds
        )
        try await endpoint.withTarget(scenario: scenario, simulator: simulator) { plan, embedded in
            try await run(
                scenario: scenario,
                plan: plan,
                load: load,
                gate: gate,
                graceMs: graceMs,
                recording: recording,
                simulator: embedded
            )
        }
    }

    private func run(
        scenario: Scenario,
        plan: SessionPlan,
        load: LoadProfile,
        gate: RunGate,
        graceMs: Int,
        recording: RecordPolicy,
        simulator embedded: AgentSimulator?
    ) async throws {
        let outputDirectory =
            out.map { URL(fileURLWithPath: $0) }
            ?? LoadRun.defaultOutputDirectory(scenario: scenario.name)
        print("scenario \(scenario.name): \(LoadOptions.describe(load)) → \(outputDirectory.path)/")
        if let callers = plan.callerAudio { print("callers: \(callers.summary)") }
        // Time-bounded models (duration, stages, arrivals) progress by time; a count of sessions otherwise.
        let total = load.durationMs.map { ProgressTotal.durationMs($0) } ?? .sessions(load.ownClients.count * load.iterations)
        let (observer, metricsServer) = try await live.start(total: total)
        let interruption = RunInterruption(graceMs: graceMs)
        let signals = InterruptSignals(interruption)
        defer { signals.remove() }
        let report: RunReport
        do {
            report = try await LoadRun.execute(
                plan: plan,
                load: load,
                outputDirectory: outputDirectory,
                simulator: embedded?.configuration.summary,
                threads: threads ?? System.coreCount,
                maxLagMs: maxLagMs,
                warmupMs: gate.warmupMs,
                thresholds: gate.expressions,
                observer: observer,
                interruption: interruption,
                embeddedSimulator: embedded.map(Self.figures),
                recording: recording,
                recordingCapBytes: recordOptions.capBytes
            )
        } catch {
            await metricsServer?.stop()
            throw error
        }
        await metricsServer?.stop()
        print("")
        print(SummaryTable.render(report))
        print("reports: \(outputDirectory.path)/report.json, turns.csv, sessions.csv, report.html, junit.xml, summary.md")
        if let recordings = report.recordings { print(recordings.line(directory: outputDirectory.path)) }
        let verdict = gate.judge(report, segment: load.segment)
        // An interrupted run exits as the signal asks, whatever its verdict.
        if let signal = report.interruptedBy { throw ExitCode(signal.exitCode) }
        if verdict != .passed { throw ExitCode(verdict.rawValue) }
    }

    /// What the built-in simulator adds to the report once the clients are gone and its own
    /// sessions have ended (waited for up to 10 s): its injected faults (with a fault plan) and
    /// how late its replies started.
    static func figures(of simulator: AgentSimulator) -> @Sendable () async -> EmbeddedSimulatorFigures {
        {
            let (figures, settled) = await simulator.runFigures()
            if !settled {
                print("warning: simulator sessions still open 10 s after the run; their injected faults and reply timing are not counted")
            }
            return figures
        }
    }

    private var loadOptions: LoadOptions {
        LoadOptions(
            clients: clients,
            rampUp: rampUp,
            iterations: iterations,
            duration: duration,
            arrivalRate: arrivalRate,
            arrivalProcess: arrivalProcess,
            maxInFlight: maxInFlight,
            stages: stages,
            segment: segment,
            drain: drain,
            retryBackoff: retryBackoff
        )
    }
}
