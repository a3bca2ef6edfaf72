import Foundation
import VoiceLoad

/// A validator for the subset of JSON Schema (draft 2020-12) that schemas/report.schema.json
/// uses: type, const, enum, minimum, properties, required, additionalProperties, items,
/// minItems, maxItems, $ref into $defs. Anything else in a schema is reported as unsupported,
/// so the schema cannot silently outgrow the validator.
package struct JSONSchemaValidator {
    package let root: JSONValue
    private static let keywords: Set<String> = [
        "$schema", "$id", "$defs", "title", "description", "type", "const", "enum", "minimum", "properties", "required",
        "additionalProperties", "items", "minItems", "maxItems", "$ref",
    ]

    package init(schemaData: Data) throws {
        root = try JSONDecoder().decode(JSONValue.self, from: schemaData)
    }

    /// The report's schema in the repository.
    package static func reportSchema(_ file: String = #filePath) throws -> JSONSchemaValidator {
        try schema(named: "report.schema.json", file)
    }

    /// The capacity report's schema in the repository.
    package static func capacitySchema(_ file: String = #filePath) throws -> JSONSchemaValidator {
        try schema(named: "capacity.schema.json", file)
    }

    /// schemas/`name` in the repository.
    private static func schema(named name: String, _ file: String) throws -> JSONSchemaValidator {
        // Up from this file to the folder with Package.swift: the repository root.
        var root = URL(fileURLWithPath: file).deletingLastPathComponent()
        while root.path != "/", !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        return try JSONSchemaValidator(schemaData: Data(contentsOf: root.appendingPathComponent("schemas/" + name)))
    }

    /// Every violation, as `path: problem`; empty when the document is valid.
    package func violations(of data: Data) throws -> [String] {
        let document = try JSONDecoder().decode(JSONValue.self, from: data)
        var problems: [String] = []
        check(document, against: root, path: "$", problems: &problems)
        return problems
    }

    private func check(_ value: JSONValue, against schema: JSONValue, path: String, problems: inout [String]) {
        guard case .object(let rules) = schema else {
            if schema == .bool(false) { problems.append("\(path): not allowed") }
            return
        }
        for key in rules.keys where !Self.keywords.contains(key) {
            problems.append("\(path): unsupported schema keyword \(key)")
        }
        if case .string(let reference)? = rules["$ref"] {
            guard let target = resolve(reference) else { return problems.append("\(path): unresolved $ref \(reference)") }
            check(value, against: target, path: path, problems: &problems)
        }
        if let type = rules["type"], !matches(value, type: type) {
            problems.append("\(path): expected \(type), got \(value)")
            return
        }
        if let constant = rules["const"], !Self.equal(value, constant) { problems.append("\(path): expected \(constant)") }
        if case .array(let options)? = rules["enum"], !options.contains(where: { Self.equal(value, $0) }) {
            problems.append("\(path): \(value) not in enum")
        }
        if let minimum = rules["minimum"]?.doubleValue, let number = value.doubleValue, number < minimum {
            problems.append("\(path): \(number) below minimum \(minimum)")
        }
        if case .object(let members) = value { checkObject(members, rules: rules, path: path, problems: &problems) }
        if case .array(let elements) = value {
            if let least = rules["minItems"]?.doubleValue, Double(elements.count) < least { problems.append("\(path): too few items") }
            if let most = rules["maxItems"]?.doubleValue, Double(elements.count) > most { problems.append("\(path): too many items") }
            if let items = rules["items"] {
                for (index, element) in elements.enumerated() {
                    check(element, against: items, path: "\(path)[\(index)]", problems: &problems)
                }
            }
        }
    }

    private func checkObject(_ members: [String: JSONValue], rules: [String: JSONValue], path: String, problems: inout [String]) {
        if case .array(let required)? = rules["required"] {
            for case .string(let name) in required where members[name] == nil { problems.append("\(path): missing \(name)") }
        }
        var properties: [String: JSONValue] = [:]
        if case .object(let declared)? = rules["properties"] { properties = declared }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            if let property = properties[name] {
                check(member, against: property, path: "\(path).\(name)", problems: &problems)
            } else if let additional = rules["additionalProperties"] {
                if additional == .bool(false) {
                    problems.append("\(path): unexpected property \(name)")
                } else {
                    check(member, against: additional, path: "\(path).\(name)", problems: &problems)
                }
            }
        }
    }

    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/$defs/"), case .object(let top) = root, case .object(let defs)? = top["$defs"] else { return nil }
        return defs[String(reference.dropFirst("#/$defs/".count))]
    }

    private func matches(_ value: JSONValue, type: JSONValue) -> Bool {
        switch type {
        case .array(let types): return types.contains { matches(value, type: $0) }
        case .string(let name):
            switch (name, value) {
            case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number),
                ("number", .integer), ("integer", .integer):
                return true
            case ("integer", .number(let number)): return number == number.rounded()
            default: return false
            }
        default: return false
        }
    }

    private static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool { lhs == rhs }
}
