import Yams

/// Typed reads of YAML nodes with errors that name the file, line and field.
package struct NodeReader {
    package let path: String

    package func error(at node: Node, _ message: String) -> ScenarioError {
        ScenarioError(path: path, line: node.mark?.line, column: node.mark?.column, message: message)
    }

    package func string(_ node: Node, field: String) throws(ScenarioError) -> String {
        guard let scalar = node.scalar else { throw error(at: node, "'\(field)' must be a string") }
        return scalar.string
    }

    package func positiveInt(_ node: Node, field: String) throws(ScenarioError) -> Int {
        guard let value = node.int, value > 0 else { throw error(at: node, "'\(field)' must be a positive integer") }
        return value
    }

    package func nonNegativeInt(_ node: Node, field: String) throws(ScenarioError) -> Int {
        guard let value = node.int, value >= 0 else { throw error(at: node, "'\(field)' must be an integer ≥ 0") }
        return value
    }

    /// The longest duration a scenario field gives, in milliseconds: one day. The client adds
    /// to durations and converts them to nanoseconds, which must never overflow.
    package static let maxMilliseconds = 86_400_000

    /// A `…_ms` duration: from 1 ms (0 ms when `allowsZero`) to one day.
    package func milliseconds(_ node: Node, field: String, allowsZero: Bool = false) throws(ScenarioError) -> Int {
        let value = allowsZero ? try nonNegativeInt(node, field: field) : try positiveInt(node, field: field)
        guard value <= Self.maxMilliseconds else {
            throw error(at: node, "'\(field)' must be at most \(Self.maxMilliseconds) ms (one day)")
        }
        return value
    }

    /// A string that must be one of `choices`.
    package func choice(_ node: Node, field: String, choices: [String]) throws(ScenarioError) -> String {
        guard let value = node.scalar?.string, choices.contains(value) else {
            throw error(at: node, "'\(field)' must be one of: \(choices.joined(separator: ", "))")
        }
        return value
    }

    package func rejectUnknownKeys(in mapping: Node.Mapping, allowed: [String], what: String) throws(ScenarioError) {
        for key in mapping.keys {
            guard let name = key.string, allowed.contains(name) else {
                throw error(at: key, "unknown \(what) '\(key.string ?? "?")' (known: \(allowed.joined(separator: ", ")))")
            }
        }
    }

    /// A mapping converted to JSON members; `what` is the error when the node is not one.
    package func object(_ node: Node, what: String) throws(ScenarioError) -> [String: JSONValue] {
        guard case .object(let object) = try json(node) else { throw error(at: node, what) }
        return object
    }

    /// Converts a YAML node to a JSON value (session parameters).
    package func json(_ node: Node) throws(ScenarioError) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            if node.null != nil { return .null }
            if let value = node.bool { return .bool(value) }
            if let value = node.int { return .number(Double(value)) }
            if let value = node.float { return .number(value) }
            return .string(scalar.string)
        case .sequence(let sequence):
            var items: [JSONValue] = []
            for item in sequence { items.append(try json(item)) }
            return .array(items)
        case .mapping(let mapping):
            var object: [String: JSONValue] = [:]
            for (key, value) in mapping {
                guard let name = key.string else { throw error(at: key, "keys must be strings") }
                object[name] = try json(value)
            }
            return .object(object)
        case .alias:
            throw error(at: node, "YAML aliases are not supported here")
        }
    }
}
