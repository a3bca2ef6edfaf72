import VoiceLoad

extension Fuzzing {
    /// The file name the scenario and dialect targets parse under: errors must name it.
    static let scenarioPath = "fuzz/scenario.yaml"
    static let dialectPath = "fuzz/dialect.yaml"

    /// The scenario target: a scenario is within its bounds (`violations(of:)`), or the error
    /// is one line starting with the file name.
    static func scenarioParsing(_ yaml: String) -> FuzzOutcome {
        do {
            return FuzzOutcome(violations: violations(of: try ScenarioLoader.parse(yaml: yaml, path: scenarioPath)))
        } catch {
            return rejected(error.description, naming: scenarioPath + ":")
        }
    }

    /// The threshold target: a finite bound, or a one-line error about the threshold.
    static func thresholdParsing(_ text: String) -> FuzzOutcome {
        do {
            let expression = try ThresholdExpression.parse(text)
            var outcome = FuzzOutcome()
            outcome.check(expression.bound.isFinite, "threshold '\(expression.text)' has the bound \(expression.bound)")
            outcome.check(
                !expression.aggregation.name.isEmpty && !expression.unit.contains("\n"),
                "threshold '\(expression.text)' has no name"
            )
            if case .percentile(let value) = expression.aggregation {
                outcome.check(
                    value > 0 && value <= 100 && (expression.aggregation.minimumSamples ?? 0) >= 20,
                    "threshold '\(expression.text)' has percentile \(value)"
                )
            }
            return outcome
        } catch {
            return rejected(error.message, naming: "threshold")
        }
    }

    /// The stages target: a list a run can follow (`validate` passes, targets finite and not
    /// negative, a positive total duration), or a one-line error naming the option.
    static func stagesParsing(_ text: String) -> FuzzOutcome {
        let option = "--stages"
        do {
            return FuzzOutcome(violations: violations(of: try StageList.parse(text, option: option), option: option))
        } catch {
            return rejected(error.message, naming: option)
        }
    }

    /// The duration target: a duration of 0 ms or more, or a one-line error naming the option.
    static func durationParsing(_ text: String) -> FuzzOutcome {
        let option = "--duration"
        do {
            let milliseconds = try DurationText.milliseconds(text, option: option)
            return FuzzOutcome(violations: milliseconds >= 0 ? [] : ["duration '\(text)' is \(milliseconds) ms"])
        } catch {
            return rejected(error.message, naming: option)
        }
    }

    /// The arrival-rate target: a rate above 0 and at most 10000/s, or a one-line error naming
    /// the option.
    static func arrivalRateParsing(_ text: String) -> FuzzOutcome {
        let option = "--arrival-rate"
        do {
            let rate = try ArrivalRate.parse(text, option: option)
            var outcome = FuzzOutcome()
            outcome.check(rate > 0 && rate <= 10_000 && !ArrivalRate.format(rate).isEmpty, "arrival rate '\(text)' is \(rate)/s")
            return outcome
        } catch {
            return rejected(error.message, naming: option)
        }
    }

    /// An input rejected with `message`, which must be one line containing `name`.
    static func rejected(_ message: String, naming name: String) -> FuzzOutcome {
        var outcome = FuzzOutcome(accepted: false)
        outcome.check(!message.contains(where: \.isNewline), "error of more than one line: \(message.debugDescription)")
        let names = name.hasSuffix(":") ? message.hasPrefix(name) : message.contains(name)
        outcome.check(names, "error that does not name \(name): \(message.debugDescription)")
        return outcome
    }

    /// How a parsed scenario breaks its bounds: every duration from 0 to one day (`quiet_ms`
    /// and timeouts from 1 ms), the jitter buffer up to 1000 ms, pauses up to an hour, repeat
    /// counts from 1 to 100000, finite threshold bounds, and stages a run can follow.
    static func violations(of scenario: Scenario) -> [String] {
        var outcome = FuzzOutcome()
        let maxMs = NodeReader.maxMilliseconds
        func checkMs(_ value: Int?, _ field: String, from minimum: Int = 0, to maximum: Int = maxMs) {
            guard let value else { return }
            outcome.check((minimum...maximum).contains(value), "scenario \(field) is \(value) ms")
        }
        func visit(_ steps: [ScenarioStep]) {
            for step in steps {
                switch step {
                case .connect(let timeoutMs), .hangup(let timeoutMs), .finalize(let timeoutMs, _):
                    checkMs(timeoutMs, "\(step.name) timeout_ms", from: 1)
                case .dtmf(let digits, let intervalMs):
                    checkMs(intervalMs, "dtmf interval_ms")
                    outcome.check(
                        !digits.isEmpty && digits.allSatisfy { "0123456789*#".contains($0) },
                        "dtmf keys \(digits.debugDescription)"
                    )
                case .configure(let parameters):
                    outcome.check(!parameters.isEmpty, "configure with no settings")
                case .wait(let wait):
                    checkMs(wait.timeoutMs, "\(step.name) timeout_ms", from: 1)
                    if case .quiet(let ms) = wait.target { checkMs(ms, "wait quiet ms", from: 1) }
                case .say(let say):
                    checkMs(say.speechStartMs, "speech_start_ms")
                    checkMs(say.speechEndMs, "speech_end_ms")
                case .pause(let pause):
                    checkMs(pause.minMs, "\(step.name) minimum", to: 3_600_000)
                    checkMs(pause.maxMs, "\(step.name) maximum", from: pause.minMs, to: 3_600_000)
                case .bargeIn(let bargeIn):
                    checkMs(bargeIn.afterHeardMs, "after_heard_ms")
                    checkMs(bargeIn.timeoutMs, "barge_in timeout_ms", from: 1)
                    checkMs(bargeIn.intTimeoutMs, "int_timeout_ms", from: 1)
                    if case .speech(let say) = bargeIn.action {
                        checkMs(say.speechStartMs, "speech_start_ms")
                        checkMs(say.speechEndMs, "speech_end_ms")
                    }
                case .backchannel(let backchannel):
                    let points = backchannel.afterHeardMs
                    outcome.check(!points.isEmpty && zip(points, points.dropFirst()).allSatisfy { $0 < $1 }, "backchannel points \(points)")
                    points.forEach { checkMs($0, "backchannel after_heard_ms") }
                    checkMs(backchannel.stopWindowMs, "stop_window_ms", from: 1)
                    checkMs(backchannel.timeoutMs, "backchannel timeout_ms", from: 1)
                case .toolReply(let reply):
                    checkMs(reply.delayMs, "tool_reply delay_ms")
                    checkMs(reply.timeoutMs, "tool_reply timeout_ms", from: 1)
                case .repeatSteps(let times, let nested):
                    outcome.check((1...100_000).contains(times) && !nested.isEmpty, "scenario repeats \(nested.count) steps \(times) times")
                    visit(nested)
                }
            }
        }
        checkMs(scenario.quietMs, "quiet_ms", from: 1)
        checkMs(scenario.jitterBufferMs, "jitter_buffer_ms", to: 1_000)
        checkMs(scenario.keepAliveMs, "keepalive_ms")
        outcome.check(!scenario.steps.isEmpty, "scenario without steps")
        visit(scenario.steps)
        for threshold in scenario.thresholds {
            outcome.check(threshold.bound.isFinite, "scenario threshold '\(threshold.text)' has the bound \(threshold.bound)")
        }
        if let stages = scenario.stages { outcome.violations += violations(of: stages, option: "stages") }
        return outcome.violations
    }

    /// How parsed stages break their bounds.
    static func violations(of stages: StageList, option: String) -> [String] {
        var outcome = FuzzOutcome()
        do {
            try stages.validate(option: option)
        } catch {
            outcome.violations.append("parsed stages fail their own validation: \(error.message)")
        }
        outcome.check(
            stages.stages.allSatisfy { $0.durationMs >= 0 && $0.target.isFinite && $0.target >= 0 },
            "stages with a negative duration or a bad target: \(stages.description)"
        )
        outcome.check(
            stages.target(atMs: Double(stages.totalDurationMs) / 2).isFinite,
            "stages with no finite target: \(stages.description)"
        )
        return outcome.violations
    }
}
