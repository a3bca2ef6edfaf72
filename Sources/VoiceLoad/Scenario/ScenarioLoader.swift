import Foundation
import Yams

/// Reads and validates scenario YAML files.
package enum ScenarioLoader {
    static let topLevelKeys = [
        "name", "description", "dialect", "url", "frame_ms", "quiet_ms", "jitter_buffer_ms", "seed", "session", "simulator", "steps",
        "thresholds", "stages",
        "reconnect", "keepalive_ms", "callers",
    ]

    /// Finds a scenario by path, or by name in `scenarios/` of the working directory.
    package static func locate(_ nameOrPath: String, searchDirectory: String = "scenarios") -> String? {
        let manager = FileManager.default
        var candidates = [nameOrPath]
        if !nameOrPath.hasSuffix(".yaml") && !nameOrPath.hasSuffix(".yml") {
            candidates += ["\(searchDirectory)/\(nameOrPath).yaml", "\(searchDirectory)/\(nameOrPath).yml"]
        }
        var isDirectory: ObjCBool = false
        return candidates.first { manager.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue }
    }

    package static func load(path: String) throws(ScenarioError) -> Scenario {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(path: path, message: "cannot read the scenario file")
        }
        return try parse(yaml: text, path: path)
    }

    package static func parse(yaml: String, path: String) throws(ScenarioError) -> Scenario {
        let root: Node
        let reader = NodeReader(path: path)
        do {
            let composed = try YAMLComposer.compose(yaml)
            guard let node = composed.root else {
                throw ScenarioError(path: path, message: "the scenario file is empty")
            }
            if let anchored = composed.anchored {
                throw reader.error(at: anchored, "YAML anchors and aliases are not supported in scenario files")
            }
            root = node
        } catch let error as ScenarioError {
            throw error
        } catch let error as YamlError {
            throw yamlError(error, path: path)
        } catch {
            throw ScenarioError(path: path, message: "invalid YAML: \(error)")
        }
        guard let mapping = root.mapping else {
            throw reader.error(at: root, "a scenario must be a mapping with 'name' and 'steps'")
        }
        try reader.rejectUnknownKeys(in: mapping, allowed: topLevelKeys, what: "scenario field")
        let baseDirectory = (path as NSString).deletingLastPathComponent
        let name =
            try mapping["name"].map { node throws(ScenarioError) in try reader.string(node, field: "name") }
            ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let stepsNode = mapping["steps"] else {
            throw reader.error(at: root, "missing field 'steps'")
        }
        guard let stepNodes = stepsNode.sequence, !stepNodes.isEmpty else {
            throw reader.error(at: stepsNode, "'steps' must be a non-empty list")
        }
        let steps = try ScenarioStepParser(reader: reader, baseDirectory: baseDirectory).steps(stepNodes, place: "steps")
        guard case .connect = steps.first else {
            throw reader.error(at: stepNodes[0], "steps[0]: the first step must be 'connect'")
        }
        let quietMs =
            try mapping["quiet_ms"].map { node throws(ScenarioError) in
                try reader.milliseconds(node, field: "quiet_ms")
            } ?? 500
        let jitterBufferMs =
            try mapping["jitter_buffer_ms"].map { node throws(ScenarioError) in
                try reader.nonNegativeInt(node, field: "jitter_buffer_ms")
            } ?? Scenario.defaultJitterBufferMs
        guard jitterBufferMs <= 1_000 else {
            throw reader.error(at: mapping["jitter_buffer_ms"]!, "'jitter_buffer_ms' must be 0–1000")
        }
        let seed = try mapping["seed"].map { node throws(ScenarioError) in UInt64(try reader.nonNegativeInt(node, field: "seed")) } ?? 1
        let parameters =
            try mapping["session"].map { node throws(ScenarioError) in
                try reader.object(node, what: "'session' must be a mapping of session parameters")
            } ?? [:]
        let simulator =
            try mapping["simulator"].map { node throws(ScenarioError) in
                try reader.object(node, what: "'simulator' must be a mapping of simulator settings (reply_ms: 8000)")
            } ?? [:]
        var scenario = Scenario(
            name: name,
            description: try mapping["description"].map { node throws(ScenarioError) in try reader.string(node, field: "description") },
            sourcePath: path,
            dialect: try mapping["dialect"].map { node throws(ScenarioError) in try reader.string(node, field: "dialect") },
            url: try mapping["url"].map { node throws(ScenarioError) in try reader.string(node, field: "url") },
            frameMs: try mapping["frame_ms"].map { node throws(ScenarioError) in try reader.positiveInt(node, field: "frame_ms") },
            quietMs: quietMs,
            jitterBufferMs: jitterBufferMs,
            seed: seed,
            sessionParameters: parameters,
            simulatorSettings: simulator,
            steps: steps
        )
        scenario.thresholds =
            try mapping["thresholds"].map { node throws(ScenarioError) in
                try thresholds(node, reader: reader)
            } ?? []
        scenario.stages = try mapping["stages"].map { node throws(ScenarioError) in try stages(node, reader: reader) }
        scenario.reconnect = try mapping["reconnect"].map { node throws(ScenarioError) in try reconnect(node, reader: reader) }
        scenario.keepAliveMs = try mapping["keepalive_ms"].map { node throws(ScenarioError) in
            try reader.milliseconds(node, field: "keepalive_ms", allowsZero: true)
        }
        scenario.callers = try mapping["callers"].map { node throws(ScenarioError) in
            try callers(node, reader: reader, baseDirectory: baseDirectory)
        }
        return scenario
    }

    /// `stages:`: a list of `{duration: 30s, target: 50}` (clients) or `{duration: 1m, target: 10/s}` (a rate).
    static func stages(_ node: Node, reader: NodeReader) throws(ScenarioError) -> StageList {
        guard let items = node.sequence, !items.isEmpty else {
            throw reader.error(at: node, "'stages' must be a non-empty list of {duration: 30s, target: 50}")
        }
        var pairs: [String] = []
        for (index, item) in items.enumerated() {
            guard let mapping = item.mapping else {
                throw reader.error(at: item, "stages[\(index)] must be a mapping like {duration: 30s, target: 50}")
            }
            try reader.rejectUnknownKeys(in: mapping, allowed: ["duration", "target"], what: "field of stages[\(index)]")
            guard let duration = mapping["duration"]?.scalar?.string, let target = mapping["target"]?.scalar?.string else {
                throw reader.error(at: item, "stages[\(index)] needs 'duration' (30s) and 'target' (50 clients or 10/s)")
            }
            pairs.append("\(duration):\(target)")
        }
        do throws(InputError) {
            return try StageList.parse(pairs.joined(separator: ","), option: "stages")
        } catch {
            throw reader.error(at: node, error.message)
        }
    }

    /// `thresholds:`: a list of expressions (`- first_audio_from_end_ms.p95 < 900`), each checked.
    static func thresholds(_ node: Node, reader: NodeReader) throws(ScenarioError) -> [ThresholdExpression] {
        guard let items = node.sequence else {
            throw reader.error(at: node, "'thresholds' must be a list of expressions like 'first_audio_from_end_ms.p95 < 900'")
        }
        var expressions: [ThresholdExpression] = []
        for (index, item) in items.enumerated() {
            guard let text = item.scalar?.string else {
                throw reader.error(at: item, "thresholds[\(index)] must be an expression like 'error_rate < 1%'")
            }
            do throws(InputError) {
                expressions.append(try ThresholdExpression.parse(text))
            } catch {
                throw reader.error(at: item, "thresholds[\(index)]: \(error.message)")
            }
        }
        return expressions
    }

    private static func yamlError(_ error: YamlError, path: String) -> ScenarioError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return ScenarioError(path: path, line: mark.line, column: mark.column, message: "invalid YAML: \(problem)")
        default:
            return ScenarioError(path: path, message: "invalid YAML: \(error)")
        }
    }
}
