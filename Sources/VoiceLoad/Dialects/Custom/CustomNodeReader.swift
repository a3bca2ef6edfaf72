import Yams

/// Typed reads of the YAML nodes of a custom dialect file, with errors that name the file,
/// line and column of the offending node.
package struct CustomNodeReader {
    package let path: String

    /// Where every key is listed, for errors about unknown keys.
    package static let keysHint = "vload validate --keys lists every key"

    package func error(at node: Node, _ message: String) -> CustomDialectError {
        CustomDialectError(path: path, line: node.mark?.line, column: node.mark?.column, message: message)
    }

    /// The members of mapping `node`, refusing keys outside `allowed` and repeated keys.
    package func fields(_ node: Node, allowed: [String], what: String) throws(CustomDialectError) -> NodeFields {
        guard case .mapping(let mapping) = node else { throw error(at: node, "\(what) must be a mapping") }
        var members: [NodeFields.Member] = []
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { throw error(at: key, "keys of \(what) must be strings") }
            guard allowed.contains(name) else {
                throw error(at: key, "unknown key '\(name)' in \(what) (known: \(allowed.joined(separator: ", ")); \(Self.keysHint))")
            }
            guard !members.contains(where: { $0.name == name }) else {
                throw error(at: key, "duplicate key '\(name)' in \(what)")
            }
            members.append(NodeFields.Member(name: name, key: key, value: value))
        }
        return NodeFields(node: node, members: members)
    }

    /// The members of mapping `node` in file order, any string keys, no repeats.
    package func anyFields(_ node: Node, what: String) throws(CustomDialectError) -> [NodeFields.Member] {
        guard case .mapping(let mapping) = node else { throw error(at: node, "\(what) must be a mapping") }
        var members: [NodeFields.Member] = []
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { throw error(at: key, "keys of \(what) must be strings") }
            guard !members.contains(where: { $0.name == name }) else {
                throw error(at: key, "duplicate key '\(name)' in \(what)")
            }
            members.append(NodeFields.Member(name: name, key: key, value: value))
        }
        return members
    }

    package func string(_ node: Node, field: String) throws(CustomDialectError) -> String {
        guard let scalar = node.scalar, tagName(node) != .null else { throw error(at: node, "'\(field)' must be a string") }
        return scalar.string
    }

    package func positiveInt(_ node: Node, field: String) throws(CustomDialectError) -> Int {
        guard tagName(node) == .int, let value = node.int, value > 0 else {
            throw error(at: node, "'\(field)' must be a positive integer")
        }
        return value
    }

    package func bool(_ node: Node, field: String) throws(CustomDialectError) -> Bool {
        guard tagName(node) == .bool, let value = node.bool else { throw error(at: node, "'\(field)' must be true or false") }
        return value
    }

    /// One of `choices`, spelled exactly.
    package func choice(_ node: Node, field: String, choices: [String]) throws(CustomDialectError) -> String {
        guard let value = node.scalar?.string, choices.contains(value) else {
            throw error(at: node, "'\(field)' must be one of: \(choices.joined(separator: ", "))")
        }
        return value
    }

    package func sequence(_ node: Node, field: String) throws(CustomDialectError) -> [Node] {
        guard case .sequence(let sequence) = node else { throw error(at: node, "'\(field)' must be a list") }
        return Array(sequence)
    }

    /// `node` as a list: its items when it is a sequence, else `node` alone (`x` or `[x, y]`).
    package func oneOrMany(_ node: Node) -> [Node] {
        if case .sequence(let sequence) = node { return Array(sequence) }
        return [node]
    }

    /// True when `node` is a YAML null (`null`, `~` or empty).
    package func isNull(_ node: Node) -> Bool {
        node.scalar != nil && tagName(node) == .null
    }

    /// The resolved YAML tag of `node` (`int`, `str`…; quoted scalars are always `str`).
    package func tagName(_ node: Node) -> Tag.Name {
        Tag.Name(rawValue: node.tag.rawValue)
    }

    /// The JSON value of a scalar: quoted scalars are strings; plain ones are resolved as
    /// YAML does (null, booleans, integers, floats, else strings). Nil for a non-scalar.
    package func scalarValue(_ node: Node) -> JSONValue? {
        guard let scalar = node.scalar else { return nil }
        switch tagName(node) {
        case .null: return .null
        case .bool: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
        case .int: return node.int.map { .number(Double($0)) } ?? .string(scalar.string)
        case .float: return node.float.map(JSONValue.number) ?? .string(scalar.string)
        default: return .string(scalar.string)
        }
    }

    /// A YAML node as a JSON value (matcher literals, `in` lists).
    package func json(_ node: Node) throws(CustomDialectError) -> JSONValue {
        switch node {
        case .scalar:
            return scalarValue(node) ?? .null
        case .sequence(let sequence):
            var items: [JSONValue] = []
            for item in sequence { items.append(try json(item)) }
            return .array(items)
        case .mapping:
            var object: [String: JSONValue] = [:]
            for member in try anyFields(node, what: "a JSON object") { object[member.name] = try json(member.value) }
            return .object(object)
        case .alias:
            throw error(at: node, "YAML aliases are not supported in dialect files")
        }
    }
}

/// The validated members of one YAML mapping, in file order.
package struct NodeFields {
    package struct Member {
        var name: String
        var key: Node
        var value: Node
    }

    /// The mapping itself, for errors about missing members.
    package let node: Node
    package let members: [Member]

    subscript(name: String) -> Node? {
        members.first { $0.name == name }?.value
    }
}
