import Foundation

/// A JSON value: the one model the dialects read frames into and build frames from, and the
/// free-form parts of a protocol (session parameters, payloads).
///
/// Numbers written without a fraction or an exponent that fit 64 bits are kept as `.integer`,
/// exactly (ids and counters round-trip); every other number is a `.number`. An `.integer`
/// equals a `.number` of the same value, so `.integer(1) == .number(1)`.
package enum JSONValue: Sendable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: Hashable {
    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.integer(let left), .integer(let right)): return left == right
        case (.number(let left), .number(let right)): return left == right
        case (.integer(let integer), .number(let number)), (.number(let number), .integer(let integer)):
            return Int64(exactly: number) == integer
        case (.string(let left), .string(let right)): return left == right
        case (.array(let left), .array(let right)): return left == right
        case (.object(let left), .object(let right)): return left == right
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .integer(let value):
            // Hashes as the equal `.number` does, when there is one.
            if let number = Double(exactly: value) { hasher.combine(number) } else { hasher.combine(value) }
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }
}

extension JSONValue {
    /// The string, if this is one.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is one.
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number (integer or not) as a `Double`, if this is one.
    package var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The number as an exact 64-bit integer, if this is an integer or an integral number in range.
    package var int64Value: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The number as an `Int`, if it is integral and in range.
    package var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The members, if this is an object.
    package var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member `key` of an object; nil when there is none or this is not an object.
    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// A short name for the kind of value, for malformed-frame reasons.
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool, .integer, .number: return "a number or boolean"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// This value with every NaN or infinite number replaced by `.null`, the only values JSON
    /// text cannot carry; everything else is unchanged.
    package func replacingNonFiniteNumbers() -> JSONValue {
        switch self {
        case .number(let value) where !value.isFinite: return .null
        case .null, .bool, .integer, .number, .string: return self
        case .array(let values): return .array(values.map { $0.replacingNonFiniteNumbers() })
        case .object(let values): return .object(values.mapValues { $0.replacingNonFiniteNumbers() })
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// `value` as a JSON integer.
    package static func int(_ value: Int) -> JSONValue { .integer(Int64(value)) }
    /// `value` as a JSON string, or null when there is none.
    package static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
}

extension JSONValue {
    /// A JSON string.
    package init(_ value: String) { self = .string(value) }
    /// A JSON string, or null when there is none.
    package init(_ value: String?) { self = value.map(JSONValue.string) ?? .null }
    /// A JSON integer.
    package init(_ value: Int) { self = .integer(Int64(value)) }
    /// A JSON integer.
    package init(_ value: Int64) { self = .integer(value) }
    /// A JSON number (written as an integer when integral, as null when not finite).
    package init(_ value: Double) { self = .number(value) }
    /// A JSON boolean.
    package init(_ value: Bool) { self = .bool(value) }
    /// A JSON object.
    package init(_ members: [String: JSONValue]) { self = .object(members) }
    /// A JSON array.
    package init(_ elements: [JSONValue]) { self = .array(elements) }
}
