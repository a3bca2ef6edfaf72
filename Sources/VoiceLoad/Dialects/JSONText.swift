/// JSON text written by hand for frames built by concatenation (custom-dialect templates, per-send
/// audio frames): string escaping as RFC 8259 requires, numbers in their shortest form, and
/// `JSONValue`s with sorted keys.
package enum JSONText {
    /// Appends the contents of a JSON string literal for `string` (without the quotes):
    /// `"` and `\` escaped, control characters as `\n`, `\t`… or `\u00XX`; `/` and all other
    /// characters as they are.
    static func appendEscaped(_ string: String, to output: inout String) {
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{8}": output += "\\b"
            case "\u{C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// `string` as a quoted JSON string literal.
    static func quoted(_ string: String) -> String {
        var output = "\""
        appendEscaped(string, to: &output)
        output += "\""
        return output
    }

    /// A JSON number: integral values without a fraction, others in Swift's shortest
    /// round-trip form; NaN and infinities, which JSON cannot carry, as `null`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    /// The compact JSON text of `value`, object keys sorted.
    package static func text(_ value: JSONValue) -> String {
        var output = ""
        append(value, to: &output)
        return output
    }

    /// How a value reads inside a string: strings as they are, `null` (or no value) as
    /// nothing, other values as their JSON text.
    static func plain(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: return ""
        case .string(let string)?: return string
        case let value?: return text(value)
        }
    }

    /// The integer a value stands for (an integral number, or a string holding an integer),
    /// as JSON text; `null` when it stands for none.
    static func integer(_ value: JSONValue?) -> String {
        switch value {
        case .number(let number)? where number.isFinite && number.rounded() == number && abs(number) < 1e15:
            return String(Int(number))
        case .string(let string)?:
            return Int(string).map(String.init) ?? "null"
        default:
            return "null"
        }
    }

    private static func append(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += Self.number(number)
        case .string(let string): output += quoted(string)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                append(item, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                output += quoted(key) + ":"
                append(members[key] ?? .null, to: &output)
            }
            output += "}"
        }
    }
}
