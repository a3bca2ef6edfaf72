import Foundation
import Yams

/// Where a field of an event comes from: a path into the frame, a constant (`{const: x}`,
/// or a bare `true`/`false` for flags), or a list of these, the first that yields a usable
/// value winning (`role: ["$.payload.role", "$.payload.speaker", {const: unknown}]`).
package struct FieldSource: Sendable {
    package enum Alternative: Sendable {
        case path(FramePath)
        case constant(JSONValue)
    }

    /// The kind of value the field takes.
    package enum Kind {
        /// Strings; numbers are read as their text.
        case string
        /// JSON booleans only.
        case bool
    }

    package let alternatives: [Alternative]

    /// The first string (or number, as text) the alternatives yield.
    package func string(in frame: InboundFrame) -> String? {
        first(in: frame) { value in
            switch value {
            case .string(let string): return string
            case .integer(let integer): return String(integer)
            case .number(let number): return JSONText.number(number)
            default: return nil
            }
        }
    }

    /// The first boolean the alternatives yield.
    package func bool(in frame: InboundFrame) -> Bool? {
        first(in: frame) { value in
            if case .bool(let flag) = value { return flag }
            return nil
        }
    }

    private func first<T>(in frame: InboundFrame, _ convert: (JSONValue) -> T?) -> T? {
        for alternative in alternatives {
            switch alternative {
            case .constant(let value):
                if let converted = convert(value) { return converted }
            case .path(let path):
                var found: T?
                _ = path.contains(in: frame) { raw in
                    found = FrameCondition.scalar(raw).flatMap(convert)
                    return found != nil
                }
                if let found { return found }
            }
        }
        return nil
    }

    /// Reads a field source; `field` names it in errors.
    package init(_ node: Node, kind: Kind, reader: CustomNodeReader, field: String) throws(CustomDialectError) {
        var alternatives: [Alternative] = []
        for item in reader.oneOrMany(node) {
            alternatives.append(try Self.alternative(item, kind: kind, reader: reader, field: field))
        }
        guard !alternatives.isEmpty else { throw reader.error(at: node, "'\(field)' needs a path or {const: …}") }
        self.alternatives = alternatives
    }

    private static func alternative(
        _ node: Node,
        kind: Kind,
        reader: CustomNodeReader,
        field: String
    ) throws(CustomDialectError) -> Alternative {
        if case .mapping = node {
            let fields = try reader.fields(node, allowed: ["const"], what: "'\(field)'")
            guard let constantNode = fields["const"] else { throw reader.error(at: node, "'\(field)' needs {const: …}") }
            let constant = reader.scalarValue(constantNode)
            switch (kind, constant) {
            case (.string, .string?), (.string, .number?), (.bool, .bool?):
                return .constant(constant ?? .null)
            default:
                throw reader.error(at: constantNode, "'\(field)' takes a \(kind == .bool ? "true or false" : "string") constant")
            }
        }
        guard let scalar = reader.scalarValue(node) else {
            throw reader.error(at: node, "'\(field)' must be a path, {const: …}, or a list of these")
        }
        switch (kind, scalar) {
        case (.bool, .bool):
            return .constant(scalar)
        case (_, .string(let text)) where text.hasPrefix("$") || text.hasPrefix("@"):
            do {
                return .path(try FramePath(parsing: text))
            } catch {
                throw reader.error(at: node, "bad path in '\(field)': \(error.message)")
            }
        default:
            throw reader.error(
                at: node,
                "'\(field)': '\(node.scalar?.string ?? "")' is not a path (paths start with '$' or '@'); write {const: …} for a constant"
            )
        }
    }
}
