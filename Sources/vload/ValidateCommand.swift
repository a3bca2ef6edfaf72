import ArgumentParser
import Foundation
import VoiceLoad

/// `vload validate SCENARIO`: checks a scenario and its audio without running it;
/// `vload validate --dialect-file FILE` checks a dialect file (docs/custom-dialects.md).
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scenario (YAML, steps, fields, audio files, simulator block) or a dialect file without running it.",
        discussion: """
            Reads the scenario, prepares every clip it speaks in the dialect's input format \
            (decode, resample, encode, find the speech), and checks the 'simulator:' block. \
            With --dialect-file (or --dialect NAME) and no scenario, checks the dialect file alone and prints what \
            it understood; an unknown key is answered with every key valid at its place, and \
            --keys prints them all (docs/dialects.md). Prints a summary and exits 0, or prints \
            one error line (file:line:column where it applies) and exits 2.
            """
    )

    @Argument(help: "The scenario: a name in scenarios/ (greeting) or a path to a YAML file (optional with --dialect-file).")
    var scenario: String?

    @Option(
        help:
            "Check the audio for this dialect's input format: a built-in dialect or a shipped dialect file by name (default: the scenario's, else datagrid)."
    )
    var dialect: String?

    @Option(name: .customLong("dialect-file"), help: "A dialect file (YAML) to check, alone or with the scenario's audio.")
    var dialectFile: String?

    @Flag(help: "Print every key a dialect file may hold, place by place, and exit.")
    var keys = false

    @Option(
        help: ArgumentHelp(
            "With --dialect-file (or --dialect): feed the frames of a capture to the dialect, one JSON object a line "
                + "({\"text\": \"…\"} or {\"binary\": \"<base64>\"}), and print the events vload reads from each.",
            valueName: "capture.jsonl"
        )
    )
    var replay: String?

    @OptionGroup(title: "Callers like people (docs/callers.md)")
    var callers: CallerOptions

    func validate() throws {
        if replay != nil, scenario != nil || (dialectFile == nil && dialect == nil) {
            throw ValidationError("--replay takes a dialect (--dialect-file FILE or --dialect NAME) and no scenario")
        }
        if scenario == nil, dialectFile == nil, dialect == nil, !keys {
            throw ValidationError(
                "give a scenario, --dialect-file FILE (or --dialect NAME), or both (--keys prints the keys of a dialect file)"
            )
        }
    }

    func run() throws {
        if keys {
            print(CustomDialectKeyReference.text)
            return
        }
        guard let scenarioName = scenario else {
            let resolved = try ResolvedDialect(id: dialect ?? "datagrid", file: dialectFile)
            print(Self.summary(ofFile: resolved.filePath ?? "built-in dialect", dialect: resolved.dialect))
            if let replay { try Self.replay(capture: replay, dialect: resolved.dialect) }
            return
        }
        let path = try ScenarioLoader.locateForCommandLine(scenarioName)
        let scenario = try callers.applied(to: ScenarioLoader.loadForCommandLine(path: path))
        let resolved = try ResolvedDialect(id: dialect ?? scenario.dialect ?? "datagrid", file: dialectFile)
        // The `simulator:` block, as a run without --url would apply it.
        let noFlags = try SimulatorOptions.parse([])
        _ = try noFlags.overriding(scenario: scenario).configuration(dialect: scenario.dialect ?? "datagrid")
        // A plan for a URL never dialled: it prepares every clip exactly as a run would.
        let plan = try SessionPlanBuilder.build(
            scenario: scenario,
            dialect: resolved.dialect,
            url: "ws://127.0.0.1:9/validate",
            token: nil,
            frameMs: nil
        )
        print(Self.summary(of: scenario, plan: plan))
    }

    /// What a dialect file says, as `vload dialects` lists it, under an OK line.
    static func summary(ofFile path: String, dialect: any ClientDialect) -> String {
        "\(path): OK · dialect \(dialect.id)\n" + DialectsCommand.describe(dialect)
    }

    static func summary(of scenario: Scenario, plan: SessionPlan) -> String {
        let steps = ScenarioStep.flattened(scenario.steps)
        var lines = [
            "\(scenario.sourcePath): OK · scenario \(scenario.name) · dialect \(plan.dialect.id) · "
                + "\(scenario.steps.count) steps (\(steps.map(\.name).joined(separator: ", ")))"
        ]
        for say in scenario.distinctSaySteps {
            guard let frames = plan.frameSets[say.audioKey] else { continue }
            let boundaries = frames.utterance.boundaries
            lines.append(
                String(
                    format: "  %@: %.2f s, speech %.2f–%.2f s, %d frames of %d ms",
                    (say.audioPath as NSString).lastPathComponent,
                    Double(frames.utterance.durationMs) / 1_000,
                    Double(boundaries.speechStartUs) / 1_000_000,
                    Double(boundaries.speechEndUs) / 1_000_000,
                    frames.frames.count,
                    frames.frameMs
                )
            )
        }
        for case .backchannel(let backchannel) in steps {
            let points = backchannel.afterHeardMs.map { String(format: "%.2f", Double($0) / 1_000) }.joined(separator: ", ")
            lines.append(
                "  backchannel \((backchannel.clip.audioPath as NSString).lastPathComponent) after \(points) s heard"
                    + " · stopped when the agent stops within \(backchannel.stopWindowMs) ms"
            )
        }
        if let audio = plan.callerAudio {
            lines.append("  callers: \(audio.summary)")
            let example = audio.variation.voice(ofCaller: 0, seed: scenario.seed)
            let bytes = audio.frameSets(for: example).values.reduce(0) {
                $0 + $1.utterance.frames.count * $1.utterance.format.byteCount(forMilliseconds: $1.frameMs)
            }
            lines.append("  caller 0 (seed \(scenario.seed)): \(example.summary); its audio \(bytes / 1_000) kB as sent")
        }
        if !scenario.simulatorSettings.isEmpty {
            lines.append(
                "  simulator (without --url): " + SimulatorOptions.arguments(for: scenario.simulatorSettings).joined(separator: " ")
            )
        }
        return lines.joined(separator: "\n")
    }
}
