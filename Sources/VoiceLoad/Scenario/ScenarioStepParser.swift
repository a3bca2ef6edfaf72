import Foundation
import Yams

/// Reads the `steps:` list of a scenario. A step is a name (`hangup`) or a mapping whose one
/// step key holds the step's argument, beside its options:
///
///     - say: audio/hello.wav
///       label: order-status
struct ScenarioStepParser {
    static let defaultConnectTimeoutMs = 10_000
    static let defaultWaitTimeoutMs = 30_000
    static let defaultHangupTimeoutMs = 5_000
    static let stepKinds = [
        "connect", "wait", "say", "silence", "think", "barge_in", "backchannel", "tool_reply", "repeat", "dtmf", "finalize", "configure",
        "hangup",
    ]
    static let defaultDTMFIntervalMs = 250
    static let defaultFinalizeTimeoutMs = 10_000

    let reader: NodeReader
    /// Audio paths are relative to the scenario file.
    let baseDirectory: String

    func steps(_ nodes: Node.Sequence, place: String) throws(ScenarioError) -> [ScenarioStep] {
        var steps: [ScenarioStep] = []
        for (index, node) in nodes.enumerated() {
            steps.append(try step(node, place: "\(place)[\(index)]"))
        }
        return steps
    }

    private func step(_ node: Node, place: String) throws(ScenarioError) -> ScenarioStep {
        let kind: String
        var argument: Node?
        var options: Node.Mapping?
        if let scalar = node.scalar {
            kind = scalar.string
        } else if let mapping = node.mapping {
            let kinds = mapping.keys.compactMap(\.string).filter { Self.stepKinds.contains($0) }
            guard kinds.count == 1, let found = kinds.first else {
                let keys = mapping.keys.compactMap(\.string).joined(separator: ", ")
                throw reader.error(at: node, "\(place): unknown step '\(keys)' (known: \(Self.stepKinds.joined(separator: ", ")))")
            }
            kind = found
            argument = mapping[found]
            options = mapping
        } else {
            throw reader.error(at: node, "\(place): a step is a name or a mapping")
        }
        let step = StepNode(kind: kind, place: place, node: node, argument: argument, options: options, reader: reader)
        switch kind {
        case "connect":
            try step.allow(["timeout_ms"])
            return .connect(timeoutMs: try step.timeout(default: Self.defaultConnectTimeoutMs))
        case "hangup":
            try step.allow(["timeout_ms"])
            return .hangup(timeoutMs: try step.timeout(default: Self.defaultHangupTimeoutMs))
        case "wait":
            return .wait(try wait(step))
        case "say":
            try step.allow(["label", "speech_start_ms", "speech_end_ms"])
            return .say(try say(step))
        case "silence", "think":
            try step.allow([])
            return .pause(try pause(step, isThink: kind == "think"))
        case "barge_in":
            return .bargeIn(try bargeIn(step))
        case "backchannel":
            return .backchannel(try backchannel(step))
        case "tool_reply":
            return .toolReply(try toolReply(step))
        case "dtmf":
            try step.allow(["interval_ms"])
            guard let digits = step.argument?.string, !digits.isEmpty, digits.allSatisfy({ "0123456789*#".contains($0) }) else {
                throw step.error("'dtmf' needs the keys to press: digits 0-9, * and # (\"1234#\")")
            }
            let intervalMs =
                try step.option("interval_ms").map { node throws(ScenarioError) in
                    try reader.milliseconds(node, field: "interval_ms", allowsZero: true)
                } ?? Self.defaultDTMFIntervalMs
            return .dtmf(digits: digits, intervalMs: intervalMs)
        case "finalize":
            try step.allow(["timeout_ms", "on_timeout"])
            return .finalize(timeoutMs: try step.timeout(default: Self.defaultFinalizeTimeoutMs), onTimeout: try step.onTimeout())
        case "configure":
            try step.allow([])
            guard let argument = step.argument, argument.mapping != nil else {
                throw step.error("'configure' needs the settings to send, as a mapping ({eot_threshold: 0.8})")
            }
            let parameters = try reader.object(argument, what: "\(place): 'configure' needs a mapping of settings")
            guard !parameters.isEmpty else { throw step.error("'configure' needs at least one setting") }
            return .configure(parameters: parameters)
        case "repeat":
            try step.allow(["steps"])
            guard let times = step.argument?.int, (1...100_000).contains(times) else {
                throw step.error("'repeat' needs a count from 1 to 100000")
            }
            guard let nested = step.option("steps")?.sequence, !nested.isEmpty else {
                throw step.error("'repeat' needs a non-empty 'steps' list")
            }
            return .repeatSteps(times: times, steps: try steps(nested, place: "\(place).steps"))
        default:
            throw reader.error(at: node, "\(place): unknown step '\(kind)' (known: \(Self.stepKinds.joined(separator: ", ")))")
        }
    }

    private func wait(_ step: StepNode) throws(ScenarioError) -> WaitStep {
        guard let value = step.argument?.string, WaitTarget.names.contains(value) else {
            throw step.error("'wait' needs one of: \(WaitTarget.names.joined(separator: ", "))")
        }
        let target: WaitTarget
        switch value {
        case "quiet":
            try step.allow(["ms", "timeout_ms", "on_timeout"])
            guard let ms = step.option("ms") else { throw step.error("'wait: quiet' needs 'ms' (how long the agent stays quiet)") }
            target = .quiet(ms: try reader.milliseconds(ms, field: "ms"))
        case "transcript":
            try step.allow(["role", "timeout_ms", "on_timeout"])
            target = .transcript(
                role: try step.option("role").map { node throws(ScenarioError) in
                    try reader.choice(node, field: "role", choices: ["user", "agent"])
                }
            )
        case "tool_call":
            try step.allow(["name", "timeout_ms", "on_timeout"])
            target = .toolCall(name: try step.string("name"))
        case "event":
            try step.allow(["event", "timeout_ms", "on_timeout"])
            guard let eventNode = step.option("event") else { throw step.error("'wait: event' needs 'event' (a normalized event name)") }
            let names = NormalizedEvent.Kind.allCases.map(\.rawValue)
            target = .event(NormalizedEvent.Kind(rawValue: try reader.choice(eventNode, field: "event", choices: names))!)
        default:
            try step.allow(["timeout_ms", "on_timeout"])
            let simple: [String: WaitTarget] = [
                "ready": .ready, "greeting": .greeting, "agent_audio": .agentAudio, "agent_turn_end": .agentTurnEnd,
            ]
            target = simple[value]!
        }
        return WaitStep(target, timeoutMs: try step.timeout(default: Self.defaultWaitTimeoutMs), onTimeout: try step.onTimeout())
    }

    private func say(_ step: StepNode) throws(ScenarioError) -> SayStep {
        guard let file = step.argument?.string, !file.isEmpty else { throw step.error("'\(step.kind)' needs an audio file path") }
        return SayStep(
            audioPath: file.hasPrefix("/") ? file : (baseDirectory as NSString).appendingPathComponent(file),
            label: try step.string("label"),
            speechStartMs: try step.option("speech_start_ms").map { node throws(ScenarioError) in
                try reader.milliseconds(node, field: "speech_start_ms", allowsZero: true)
            },
            speechEndMs: try step.option("speech_end_ms").map { node throws(ScenarioError) in
                try reader.milliseconds(node, field: "speech_end_ms")
            }
        )
    }

    /// `silence: 2000`, `think: 1500` or `think: [1000, 3000]` (a uniform random range).
    private func pause(_ step: StepNode, isThink: Bool) throws(ScenarioError) -> PauseStep {
        let usage = "'\(step.kind)' needs a duration in ms (1500) or a range ([1000, 3000])"
        guard let argument = step.argument else { throw step.error(usage) }
        if let ms = argument.int {
            guard (0...3_600_000).contains(ms) else { throw reader.error(at: argument, "\(step.place): \(usage), up to one hour") }
            return PauseStep(minMs: ms, maxMs: ms, isThink: isThink)
        }
        guard let range = argument.sequence, range.count == 2, let low = range[0].int, let high = range[1].int,
            low >= 0, low <= high, high <= 3_600_000
        else { throw reader.error(at: argument, "\(step.place): \(usage); a range is [min, max] with 0 ≤ min ≤ max") }
        return PauseStep(minMs: low, maxMs: high, isThink: isThink)
    }

    private func bargeIn(_ step: StepNode) throws(ScenarioError) -> BargeInStep {
        try step.allow(["after_heard_ms", "label", "speech_start_ms", "speech_end_ms", "timeout_ms", "int_timeout_ms", "on_timeout"])
        guard let afterNode = step.option("after_heard_ms") else {
            throw step.error("'barge_in' needs 'after_heard_ms' (how much of the agent's turn the caller hears first)")
        }
        let action: BargeInStep.Action
        if step.argument?.string == "command" {
            action = .command
        } else {
            action = .speech(try say(step))
        }
        let intTimeoutMs =
            try step.option("int_timeout_ms").map { node throws(ScenarioError) in
                try reader.milliseconds(node, field: "int_timeout_ms")
            } ?? 3_000
        return BargeInStep(
            action: action,
            afterHeardMs: try reader.milliseconds(afterNode, field: "after_heard_ms", allowsZero: true),
            label: try step.string("label"),
            timeoutMs: try step.timeout(default: Self.defaultWaitTimeoutMs),
            intTimeoutMs: intTimeoutMs,
            onTimeout: try step.onTimeout()
        )
    }

    /// `backchannel: FILE` with `after_heard_ms` (one point of the answer, or an ascending list).
    private func backchannel(_ step: StepNode) throws(ScenarioError) -> BackchannelStep {
        try step.allow(["after_heard_ms", "speech_start_ms", "speech_end_ms", "stop_window_ms", "timeout_ms", "on_timeout"])
        guard let afterNode = step.option("after_heard_ms") else {
            throw step.error("'backchannel' needs 'after_heard_ms': how much of the agent's turn the caller hears first (1500), or a list ([1000, 3000])")
        }
        var points: [Int] = []
        if let list = afterNode.sequence {
            for node in list { points.append(try reader.milliseconds(node, field: "after_heard_ms", allowsZero: true)) }
            guard !points.isEmpty, points.count <= 100, zip(points, points.dropFirst()).allSatisfy({ $0 < $1 }) else {
                let message = "'after_heard_ms' of 'backchannel' is a list of 1 to 100 points in ascending order"
                throw reader.error(at: afterNode, "\(step.place): \(message)")
            }
        } else {
            points = [try reader.milliseconds(afterNode, field: "after_heard_ms", allowsZero: true)]
        }
        let stopWindowMs =
            try step.option("stop_window_ms").map { node throws(ScenarioError) in
                try reader.milliseconds(node, field: "stop_window_ms")
            } ?? BackchannelStep.defaultStopWindowMs
        return BackchannelStep(
            clip: try say(step),
            afterHeardMs: points,
            stopWindowMs: stopWindowMs,
            timeoutMs: try step.timeout(default: Self.defaultWaitTimeoutMs),
            onTimeout: try step.onTimeout()
        )
    }

    /// `tool_reply:` a mapping of tool name (or `*`) to its output: a string is sent as it
    /// is, anything else as JSON text.
    private func toolReply(_ step: StepNode) throws(ScenarioError) -> ToolReplyStep {
        try step.allow(["delay_ms", "timeout_ms", "on_timeout"])
        guard let argument = step.argument, argument.mapping != nil else {
            throw step.error("'tool_reply' needs a mapping of tool name to output (get_weather: {temperature_c: 18})")
        }
        var outputs: [String: String] = [:]
        for (name, value) in try reader.object(argument, what: "'tool_reply' must be a mapping") {
            if case .string(let text) = value { outputs[name] = text } else { outputs[name] = JSONText.text(value) }
        }
        let delayMs =
            try step.option("delay_ms").map { node throws(ScenarioError) in
                try reader.milliseconds(node, field: "delay_ms", allowsZero: true)
            } ?? 0
        return ToolReplyStep(
            outputs: outputs,
            delayMs: delayMs,
            timeoutMs: try step.timeout(default: Self.defaultWaitTimeoutMs),
            onTimeout: try step.onTimeout()
        )
    }
}

/// One step's node, its argument and options, with the reads every step shares.
private struct StepNode {
    let kind: String
    let place: String
    let node: Node
    let argument: Node?
    let options: Node.Mapping?
    let reader: NodeReader

    func option(_ key: String) -> Node? { options?[key] }

    func error(_ message: String) -> ScenarioError {
        reader.error(at: argument ?? node, "\(place): \(message)")
    }

    /// Rejects keys other than the step's own and `keys`.
    func allow(_ keys: [String]) throws(ScenarioError) {
        guard let options else { return }
        try reader.rejectUnknownKeys(in: options, allowed: [kind] + keys, what: "field of '\(kind)' in \(place)")
    }

    func string(_ key: String) throws(ScenarioError) -> String? {
        try option(key).map { node throws(ScenarioError) in try reader.string(node, field: key) }
    }

    func timeout(default value: Int) throws(ScenarioError) -> Int {
        try option("timeout_ms").map { node throws(ScenarioError) in try reader.milliseconds(node, field: "timeout_ms") } ?? value
    }

    func onTimeout() throws(ScenarioError) -> StepTimeoutPolicy {
        guard let node = option("on_timeout") else { return .fail }
        return StepTimeoutPolicy(rawValue: try reader.choice(node, field: "on_timeout", choices: ["fail", "continue"]))!
    }
}
