import Foundation
import Yams

/// A matcher of the custom dialect language (docs/custom-dialects.md): a mapping of
/// `path: condition` whose entries must all hold (AND), where the key `any` takes a list of
/// matchers of which one must hold (OR). Paths that select several values (`[*]`) hold when
/// any selected value satisfies the condition.
///
/// Conditions: a scalar (JSON equality, `1` equals `1.0`, `"1"` does not), `{exists: bool}`
/// (JSON `null` counts as absent), `{in: [...]}`, `{prefix: "…"}` and `{regex: "…"}` (on
/// string values; the regex matches anywhere unless anchored), `{truthy: bool}` (true,
/// non-zero numbers, non-empty strings, arrays and objects). One condition mapping may hold
/// several of these; all must hold. Literals are read as YAML reads them: quote strings YAML
/// would take for booleans, numbers or null (`"on"`, `"yes"`, `"1"`, `"null"`).
package struct FrameMatcher: Sendable {
    package enum Clause: Sendable {
        case test(FramePath, [FrameCondition])
        case any([FrameMatcher])
    }

    package let clauses: [Clause]

    package func matches(_ frame: InboundFrame) -> Bool {
        clauses.allSatisfy { clause in
            switch clause {
            case .test(let path, let conditions): return conditions.allSatisfy { $0.holds(at: path, in: frame) }
            case .any(let alternatives): return alternatives.contains { $0.matches(frame) }
            }
        }
    }

    /// Whether the matcher reads `@raw` anywhere.
    package var usesRawText: Bool {
        clauses.contains { clause in
            switch clause {
            case .test(let path, _): return path.root == .raw
            case .any(let alternatives): return alternatives.contains(where: \.usesRawText)
            }
        }
    }

    /// Whether a top-level entry requires `@frame: binary`.
    package var requiresBinaryFrame: Bool {
        clauses.contains { clause in
            guard case .test(let path, let conditions) = clause, path.root == .frameKind else { return false }
            return conditions.contains { condition in
                if case .equals(.string("binary")) = condition { return true }
                return false
            }
        }
    }

    /// Reads a matcher from its YAML mapping; `what` names it in errors.
    package init(_ node: Node, reader: CustomNodeReader, what: String) throws(CustomDialectError) {
        let members = try reader.anyFields(node, what: what)
        guard !members.isEmpty else { throw reader.error(at: node, "\(what) needs at least one condition") }
        var clauses: [Clause] = []
        for member in members {
            if member.name == "any" {
                let items = try reader.sequence(member.value, field: "any")
                guard !items.isEmpty else { throw reader.error(at: member.value, "'any' needs at least one matcher") }
                var alternatives: [FrameMatcher] = []
                for item in items {
                    alternatives.append(try FrameMatcher(item, reader: reader, what: "a matcher in 'any'"))
                }
                clauses.append(.any(alternatives))
                continue
            }
            let path: FramePath
            do {
                path = try FramePath(parsing: member.name)
            } catch {
                throw reader.error(at: member.key, "bad matcher in \(what): \(error.message)")
            }
            let conditions = try Self.conditions(member.value, path: path, reader: reader)
            clauses.append(.test(path, conditions))
        }
        self.clauses = clauses
    }

    package static let conditionNames = ["exists", "in", "prefix", "regex", "truthy"]

    private static func conditions(_ node: Node, path: FramePath, reader: CustomNodeReader) throws(CustomDialectError) -> [FrameCondition] {
        switch node {
        case .scalar:
            let value = reader.scalarValue(node) ?? .null
            if path.root == .frameKind, value != .string("text"), value != .string("binary") {
                throw reader.error(at: node, "bad matcher: '@frame' is 'text' or 'binary'")
            }
            return [.equals(value)]
        case .sequence:
            throw reader.error(at: node, "bad matcher for '\(path)': a list is not a condition (use {in: [...]} for alternatives)")
        case .alias:
            throw reader.error(at: node, "YAML aliases are not supported in dialect files")
        case .mapping:
            let fields = try reader.fields(node, allowed: conditionNames, what: "the condition on '\(path)'")
            guard !fields.members.isEmpty else {
                throw reader.error(
                    at: node,
                    "bad matcher for '\(path)': empty condition (known: \(conditionNames.joined(separator: ", ")))"
                )
            }
            var conditions: [FrameCondition] = []
            for member in fields.members {
                conditions.append(try condition(member, path: path, reader: reader))
            }
            return conditions
        }
    }

    private static func condition(
        _ member: NodeFields.Member,
        path: FramePath,
        reader: CustomNodeReader
    ) throws(CustomDialectError) -> FrameCondition {
        let node = member.value
        switch member.name {
        case "exists":
            return .exists(try reader.bool(node, field: "exists"))
        case "truthy":
            return .truthy(try reader.bool(node, field: "truthy"))
        case "in":
            guard case .array(let values) = try reader.json(node), !values.isEmpty else {
                throw reader.error(at: node, "bad matcher for '\(path)': 'in' needs a non-empty list")
            }
            return .oneOf(values)
        case "prefix":
            guard case .string(let prefix)? = reader.scalarValue(node) else {
                throw reader.error(at: node, "bad matcher for '\(path)': 'prefix' needs a string")
            }
            return .prefix(prefix)
        default:
            guard case .string(let pattern)? = reader.scalarValue(node) else {
                throw reader.error(at: node, "bad matcher for '\(path)': 'regex' needs a string")
            }
            do {
                return .regex(FrameRegex(pattern: pattern, expression: try NSRegularExpression(pattern: pattern)))
            } catch {
                throw reader.error(at: node, "bad matcher for '\(path)': invalid regex '\(pattern)'")
            }
        }
    }
}
