import Foundation
import Yams

/// Reads and validates scenario YAML files.
public enum ScenarioLoader {
    static let defaultConnectTimeoutMs = 10_000
    static let defaultWaitTimeoutMs = 30_000
    static let defaultHangupTimeoutMs = 5_000
    static let stepKinds = ["connect", "wait", "say", "hangup"]
    static let topLevelKeys = ["name", "description", "dialect", "url", "frame_ms", "quiet_ms", "session", "steps"]

    /// Finds a scenario by path, or by name in `scenarios/` of the working directory.
    public static func locate(_ nameOrPath: String, searchDirectory: String = "scenarios") -> String? {
        let manager = FileManager.default
        var candidates = [nameOrPath]
        if !nameOrPath.hasSuffix(".yaml") && !nameOrPath.hasSuffix(".yml") {
            candidates += ["\(searchDirectory)/\(nameOrPath).yaml", "\(searchDirectory)/\(nameOrPath).yml"]
        }
        var isDirectory: ObjCBool = false
        return candidates.first { manager.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue }
    }

    public static func load(path: String) throws(ScenarioError) -> Scenario {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(path: path, message: "cannot read the scenario file")
        }
        return try parse(yaml: text, path: path)
    }

    public static func parse(yaml: String, path: String) throws(ScenarioError) -> Scenario {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                throw ScenarioError(path: path, message: "the scenario file is empty")
            }
            root = node
        } catch let error as ScenarioError {
            throw error
        } catch let error as YamlError {
            throw yamlError(error, path: path)
        } catch {
            throw ScenarioError(path: path, message: "invalid YAML: \(error)")
        }
        let reader = NodeReader(path: path)
        guard let mapping = root.mapping else {
            throw reader.error(at: root, "a scenario must be a mapping with 'name' and 'steps'")
        }
        try reader.rejectUnknownKeys(in: mapping, allowed: topLevelKeys, what: "scenario field")
        let baseDirectory = (path as NSString).deletingLastPathComponent
        let name = try mapping["name"].map { node throws(ScenarioError) in try reader.string(node, field: "name") }
            ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let stepsNode = mapping["steps"] else {
            throw reader.error(at: root, "missing field 'steps'")
        }
        guard let stepNodes = stepsNode.sequence, !stepNodes.isEmpty else {
            throw reader.error(at: stepsNode, "'steps' must be a non-empty list")
        }
        var steps: [ScenarioStep] = []
        for (index, node) in stepNodes.enumerated() {
            steps.append(try step(node, index: index, reader: reader, baseDirectory: baseDirectory))
        }
        guard case .connect = steps.first else {
            throw reader.error(at: stepNodes[0], "steps[0]: the first step must be 'connect'")
        }
        let quietMs = try mapping["quiet_ms"].map { node throws(ScenarioError) in
            try reader.positiveInt(node, field: "quiet_ms")
        } ?? 500
        var parameters: [String: JSONValue] = [:]
        if let session = mapping["session"] {
            guard case .object(let object) = try reader.json(session) else {
                throw reader.error(at: session, "'session' must be a mapping of session parameters")
            }
            parameters = object
        }
        return Scenario(
            name: name,
            description: try mapping["description"].map { node throws(ScenarioError) in try reader.string(node, field: "description") },
            sourcePath: path,
            dialect: try mapping["dialect"].map { node throws(ScenarioError) in try reader.string(node, field: "dialect") },
            url: try mapping["url"].map { node throws(ScenarioError) in try reader.string(node, field: "url") },
            frameMs: try mapping["frame_ms"].map { node throws(ScenarioError) in try reader.positiveInt(node, field: "frame_ms") },
            quietMs: quietMs,
            sessionParameters: parameters,
            steps: steps
        )
    }

    private static func step(_ node: Node, index: Int, reader: NodeReader, baseDirectory: String) throws(ScenarioError) -> ScenarioStep {
        let place = "steps[\(index)]"
        let kind: String
        var argument: Node?
        var options: Node.Mapping?
        if let scalar = node.scalar {
            kind = scalar.string
        } else if let mapping = node.mapping {
            let kinds = mapping.keys.compactMap(\.string).filter { stepKinds.contains($0) }
            guard kinds.count == 1, let found = kinds.first else {
                let keys = mapping.keys.compactMap(\.string).joined(separator: ", ")
                throw reader.error(at: node, "\(place): unknown step '\(keys)' (known: \(stepKinds.joined(separator: ", ")))")
            }
            kind = found
            argument = mapping[found]
            options = mapping
        } else {
            throw reader.error(at: node, "\(place): a step is a name or a mapping")
        }
        func option(_ key: String) -> Node? { options?[key] }
        func allow(_ keys: [String]) throws(ScenarioError) {
            if let options { try reader.rejectUnknownKeys(in: options, allowed: [kind] + keys, what: "field of '\(kind)' in \(place)") }
        }
        func timeout(default value: Int) throws(ScenarioError) -> Int {
            try option("timeout_ms").map { node throws(ScenarioError) in try reader.positiveInt(node, field: "timeout_ms") } ?? value
        }
        switch kind {
        case "connect":
            try allow(["timeout_ms"])
            return .connect(timeoutMs: try timeout(default: defaultConnectTimeoutMs))
        case "hangup":
            try allow(["timeout_ms"])
            return .hangup(timeoutMs: try timeout(default: defaultHangupTimeoutMs))
        case "wait":
            try allow(["timeout_ms"])
            guard let argument, let value = argument.string, let target = WaitTarget(rawValue: value) else {
                let known = WaitTarget.allCases.map(\.rawValue).joined(separator: ", ")
                throw reader.error(at: argument ?? node, "\(place): 'wait' needs one of: \(known)")
            }
            return .wait(target, timeoutMs: try timeout(default: defaultWaitTimeoutMs))
        case "say":
            try allow(["label", "speech_start_ms", "speech_end_ms"])
            guard let argument, let file = argument.string, !file.isEmpty else {
                throw reader.error(at: argument ?? node, "\(place): 'say' needs an audio file path")
            }
            let audioPath = file.hasPrefix("/") ? file : (baseDirectory as NSString).appendingPathComponent(file)
            return .say(SayStep(
                audioPath: audioPath,
                label: try option("label").map { node throws(ScenarioError) in try reader.string(node, field: "label") },
                speechStartMs: try option("speech_start_ms").map { node throws(ScenarioError) in try reader.nonNegativeInt(node, field: "speech_start_ms") },
                speechEndMs: try option("speech_end_ms").map { node throws(ScenarioError) in try reader.positiveInt(node, field: "speech_end_ms") }
            ))
        default:
            throw reader.error(at: node, "\(place): unknown step '\(kind)' (known: \(stepKinds.joined(separator: ", ")))")
        }
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
