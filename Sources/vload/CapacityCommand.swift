import AgentSimulator
import ArgumentParser
import Foundation
import Synchronization
import VoiceLoad

/// `vload capacity`: finds the highest concurrency at which every SLO holds, by running
/// closed-model steps of growing concurrency (then bisecting past the first failure) and
/// judging the SLOs on each after its warm-up.
struct CapacityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capacity",
        abstract: "Find the highest concurrency at which every SLO holds.",
        discussion: """
            Runs steps of --start clients, growing by --step while every SLO holds, up to \
            --max-clients; past the first failing step it bisects between the highest passing and \
            the lowest failing concurrency until they are --resolution clients apart. Each step \
            ramps up, warms up (left out of the figures) and holds, and writes its reports to \
            OUT/step-<clients>/; OUT/capacity.json and OUT/capacity.html record the search. A \
            step fails when an SLO fails or cannot be judged. A percentile SLO with fewer \
            samples than it needs (20 for p95, 100 for p99) is judged on every sample when they \
            all lie on one side of its bound; when they lie on both sides the step's hold is \
            extended (sessions go on starting as before, checked once a second) until they \
            suffice or the hold reaches --max-hold, and the step line and capacity.json say by \
            how much. A step whose verdict is within the noise of an SLO (the 95% bootstrap \
            interval of its percentile holds the bound) runs once more at the same concurrency, \
            and passes only if both attempts pass; capacity.json lists those concurrencies \
            under within_noise and the answer names them. Exit codes: 0 a \
            highest passing concurrency was found; 1 even the first step failed; 2 bad input; \
            3 the load generator was saturated (no answer to trust); 4 no session reached the \
            endpoint; 130 or 143 a SIGINT or SIGTERM stopped the search (the step under way is \
            wound down, left out, and capacity.json written with interrupted: true).
            """
    )

    @Option(help: "Scenario name (looked up as scenarios/NAME.yaml) or path to a scenario YAML file.")
    var scenario = "greeting"

    @Option(
        name: .customLong("slo"),
        help: ArgumentHelp(
            "A bound every step must meet (repeatable; added to the scenario's 'thresholds:'), in the threshold grammar, "
                + "e.g. 'first_audio_from_end_ms.p95 < 1200', 'error_rate < 1%'.",
            valueName: "expr"
        )
    )
    var slos: [String] = []

    @Option(help: "Concurrent clients of the first step.")
    var start = 10

    @Option(help: ArgumentHelp("Growth while steps pass: a factor (x2, x1.5) or clients to add (+50).", valueName: "growth"))
    var step = "x2"

    @Option(name: .customLong("max-clients"), help: "The highest concurrency to try.")
    var maxClients = 1_000

    @Option(help: "Stop bisecting when the highest passing and the lowest failing concurrency are this many clients apart.")
    var resolution = 5

    @Option(name: .customLong("ramp-up"), help: "Spread each step's client starts over this duration (default: the warm-up).")
    var rampUp: String?

    @Option(help: "Per step: leave out what starts within this time of the step's start (e.g. 10s).")
    var warmup = "10s"

    @Option(help: "Per step: how long to go on after the warm-up (e.g. 30s).")
    var hold = "30s"

    @Option(
        name: .customLong("max-hold"),
        help: ArgumentHelp(
            "Per step: how long the hold may be extended to while a percentile SLO has too few samples, on both sides "
                + "of its bound (default: 4 × --hold; at least --hold).",
            valueName: "duration"
        )
    )
    var maxHold: String?

    @Option(
        help: ArgumentHelp(
            "On SIGINT or SIGTERM: how long the step's open sessions get to hang up cleanly (a second signal exits at once).",
            valueName: "duration"
        )
    )
    var grace = "5s"

    @Option(
        name: .customLong("max-lag-ms"),
        help: ArgumentHelp(
            "Per step: the step is invalid, and the search stops, when the p99 of the generator's send lag, of its receive lag "
                + "or of the built-in simulator's reply lateness exceeds this (default: 2).",
            valueName: "ms"
        )
    )
    var maxLagMs: Double?

    @Option(help: "Directory for the reports (default: reports/capacity-<scenario>-<UTC time>).")
    var out: String?

    @OptionGroup(title: "Recordings: each step's, kept for the highest passing and the lowest failing step")
    var recordOptions: RecordOptions

    @OptionGroup
    var endpoint: EndpointOptions

    @OptionGroup(title: "Built-in simulator (only without --url)")
    var simulator: SimulatorOptions

    func validate() throws {
        if let maxLagMs, !(maxLagMs > 0 && maxLagMs <= 60_000) {
            throw ValidationError("--max-lag-ms must be above 0 and at most 60000 (got \(maxLagMs))")
        }
        try endpoint.check(simulator: simulator)
    }

    func run() async throws {
        let search = try CapacitySearch(
            startClients: start,
            growth: try CapacityGrowth(parsing: step),
            maxClients: maxClients,
            resolutionClients: resolution
        )
        let warmupMs = try DurationText.milliseconds(warmup, option: "--warmup")
        let holdMs = try DurationText.milliseconds(hold, option: "--hold")
        guard holdMs > 0 else { throw InputError("--hold must be longer than 0") }
        let maxHoldMs =
            try maxHold.map { text throws(InputError) in try DurationText.milliseconds(text, option: "--max-hold") }
            ?? HoldExtension.defaultMaxHoldMs(holdMs: holdMs)
        let holdExtension = try HoldExtension(holdMs: holdMs, maxHoldMs: maxHoldMs)
        let rampUpMs = try rampUp.map { text throws(InputError) in try DurationText.milliseconds(text, option: "--ramp-up") } ?? warmupMs
        let interruption = RunInterruption(graceMs: try DurationText.milliseconds(grace, option: "--grace"))
        let recording = try recordOptions.policy()
        let scenarioPath = try ScenarioLoader.locateForCommandLine(scenario)
        let scenario = try ScenarioLoader.loadForCommandLine(path: scenarioPath)
        var expressions = scenario.thresholds
        for text in slos { expressions.append(try ThresholdExpression.parse(text)) }
        guard !expressions.isEmpty else {
            throw InputError(
                "capacity needs at least one --slo (e.g. --slo 'first_audio_from_end_ms.p95 < 1200'), or thresholds: in the scenario"
            )
        }
        let settings = CapacityReport.Search(
            search: search,
            warmupMs: warmupMs,
            holdMs: holdMs,
            rampUpMs: rampUpMs,
            maxHoldMs: maxHoldMs
        )
        let outputDirectory =
            out.map { URL(fileURLWithPath: $0) }
            ?? LoadRun.defaultOutputDirectory(scenario: "capacity-" + scenario.name)
        let outcome = try await endpoint.withTarget(scenario: scenario, simulator: simulator) { plan, embedded in
            print("capacity of \(plan.redactedURL) on scenario \(scenario.name): SLOs " + expressions.map(\.text).joined(separator: ", "))
            print(
                "steps from \(start) clients, step \(settings.step), at most \(maxClients), resolution \(resolution); "
                    + "each: ramp-up \(rampUp ?? warmup), warm-up \(warmup), hold \(hold) (at most \(HoldExtension.seconds(maxHoldMs))s) "
                    + "→ \(outputDirectory.path)/"
            )
            let startedAt = Date()
            let simulatorSummary = embedded?.configuration.summary
            let signals = InterruptSignals(interruption)
            defer { signals.remove() }
            let (steps, outcome) = try await runSteps(
                search,
                plan: plan,
                load: (rampUpMs, warmupMs, holdMs),
                holdExtension: holdExtension,
                slos: expressions,
                simulator: simulatorSummary,
                embedded: embedded.map(RunCommand.figures),
                outputDirectory: outputDirectory,
                interruption: interruption
            )
            let report = CapacityReport(
                scenario: scenario,
                url: plan.redactedURL,
                dialect: plan.dialect.id,
                slos: expressions,
                search: settings,
                simulator: simulatorSummary,
                steps: steps,
                outcome: outcome,
                startedAt: startedAt,
                endedAt: Date()
            )
            let listening = try Self.pruneRecordings(of: report, in: outputDirectory)
            try write(report, to: outputDirectory)
            print("")
            print(report.answer)
            if !listening.isEmpty {
                print("recordings (\(recording)): " + listening.joined(separator: ", ") + "; the other steps' were removed")
            }
            print("reports: \(outputDirectory.path)/capacity.json, capacity.html, step-<clients>/")
            return outcome
        }
        if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
    }

    /// Runs the steps the search asks for until it ends, or a signal stops it (the step under
    /// way wound down and left out); prints a line as each finishes.
    private func runSteps(
        _ initial: CapacitySearch,
        plan: SessionPlan,
        load: (rampUpMs: Int, warmupMs: Int, holdMs: Int),
        holdExtension: HoldExtension,
        slos: [ThresholdExpression],
        simulator: [String: String]?,
        embedded: (@Sendable () async -> EmbeddedSimulatorFigures)?,
        outputDirectory: URL,
        interruption: RunInterruption
    ) async throws -> ([CapacityStep], CapacitySearch.Outcome) {
        var search = initial
        var steps: [CapacityStep] = []
        while true {
            switch search.next {
            case .finished(let outcome):
                return (steps, outcome)
            case .run(let clients):
                let attempt = search.nextAttempt
                let profile = LoadProfile(clients: clients, rampUpMs: load.rampUpMs, durationMs: load.warmupMs + load.holdMs)
                var step = try await runStep(
                    clients: clients,
                    attempt: attempt,
                    plan: plan,
                    load: profile,
                    warmupMs: load.warmupMs,
                    holdExtension: holdExtension,
                    slos: slos,
                    simulator: simulator,
                    embedded: embedded,
                    outputDirectory: outputDirectory,
                    interruption: interruption
                )
                if let signal = interruption.signal { return (steps, .interrupted(by: signal, clients: clients)) }
                if attempt == 2 { step.attempt = 2 }
                print(step.line)
                steps.append(step)
                search.record(clients: clients, verdict: step.verdict, withinNoise: step.withinNoise == true)
                if search.nextAttempt == 2 {
                    steps[steps.count - 1].attempt = 1
                    print("       within the noise of " + step.noiseText.joined(separator: "; ") + ": running \(clients) clients once more")
                }
            }
        }
    }

    /// One step, its hold extended while an SLO's samples are too few and on both sides of its
    /// bound (`HoldExtension`, asked once a second from the run's report as it stands; progress
    /// on stderr). A repeat writes to `step-<clients>-2/`.
    private func runStep(
        clients: Int,
        attempt: Int,
        plan: SessionPlan,
        load: LoadProfile,
        warmupMs: Int,
        holdExtension: HoldExtension,
        slos: [ThresholdExpression],
        simulator: [String: String]?,
        embedded: (@Sendable () async -> EmbeddedSimulatorFigures)?,
        outputDirectory: URL,
        interruption: RunInterruption
    ) async throws -> CapacityStep {
        let name = attempt == 1 ? "step-\(clients)" : "step-\(clients)-\(attempt)"
        let directory = outputDirectory.appendingPathComponent(name)
        let extending = Mutex(holdExtension)
        let overtime = RunOvertime(checkEveryMs: 1_000) { report, pastMs in
            let shortfalls = ThresholdEvaluator.evaluate(slos, on: report).compactMap(\.shortfall)
            let decision = extending.withLock { $0.decide(pastHoldMs: pastMs, shortfalls: shortfalls) }
            if case .goOn(let shortfalls, first: true) = decision {
                Self.progress(
                    "step at \(clients) clients: extending the hold (up to --max-hold \(HoldExtension.seconds(holdExtension.maxHoldMs)) s): "
                        + shortfalls.map(\.text).joined(separator: "; ") + ", on both sides of the bound"
                )
            }
            return decision != .stop
        }
        let run = try await LoadRun.execute(
            plan: plan,
            load: load,
            outputDirectory: directory,
            simulator: simulator,
            maxLagMs: maxLagMs,
            warmupMs: warmupMs,
            thresholds: slos,
            interruption: interruption,
            embeddedSimulator: embedded,
            overtime: overtime,
            recording: try recordOptions.policy(),
            recordingCapBytes: recordOptions.capBytes
        )
        var step = CapacityStep(clients: clients, run: run, report: name + "/report.json")
        step.holdExtension = extending.withLock { $0.record }
        if let hold = step.holdExtension { Self.progress("step at \(clients) clients: " + hold.text) }
        return step
    }

    /// Keeps the recordings of the highest passing and the lowest failing step (each attempt at
    /// them) and removes the others' (docs/recordings.md, "In a capacity search"): their
    /// recordings/ goes, and their reports are written again without it. Returns a part of the
    /// printed line for each kept step that recorded.
    private static func pruneRecordings(of capacity: CapacityReport, in directory: URL) throws(InputError) -> [String] {
        var listening: [String] = []
        for step in capacity.steps {
            let reportURL = directory.appendingPathComponent(step.report)
            let stepDirectory = reportURL.deletingLastPathComponent()
            do {
                var report = try RunReport.decode(from: Data(contentsOf: reportURL))
                guard let recordings = report.recordings else { continue }
                let role =
                    step.clients == capacity.highestPassing
                    ? "highest passing" : step.clients == capacity.firstFailing?.clients ? "lowest failing" : nil
                if let role {
                    let megabytes = String(format: "%.1f MB", Double(recordings.bytes) / 1_000_000)
                    listening.append(
                        "\(stepDirectory.lastPathComponent)/recordings/ (\(role): \(recordings.calls.count) calls, \(megabytes))"
                    )
                    continue
                }
                let folder = stepDirectory.appendingPathComponent("recordings")
                if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
                report.recordings = nil
                try report.jsonData().write(to: reportURL)
                try ReportFiles.write(report, to: stepDirectory)
            } catch {
                throw InputError("cannot remove the recordings of \(stepDirectory.path): \(FileErrorText.reason(of: error))")
            }
        }
        return listening
    }

    private static func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    private func write(_ report: CapacityReport, to directory: URL) throws(InputError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try report.jsonData().write(to: directory.appendingPathComponent("capacity.json"))
            try Data(CapacityHTML.render(report).utf8).write(to: directory.appendingPathComponent("capacity.html"))
        } catch {
            throw InputError("cannot write the capacity report to \(directory.path): \(FileErrorText.reason(of: error))")
        }
    }
}
