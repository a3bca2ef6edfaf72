import Foundation

/// JSON text written by hand for frames built by concatenation (custom-dialect templates, per-send
/// audio frames): string escaping as RFC 8259 requires, numbers in their shortest form, and
/// `JSONValue`s with sorted keys.
package enum JSONText {
    /// Appends the contents of a JSON string literal for `string` (without the quotes), as
    /// `JSONSerialization` writes it: `"` and `\` escaped, control characters as `\n`, `\t`… or
    /// `\u00xx` (lowercase hex); `/` and all other characters as they are.
    static func appendEscaped(_ string: String, to output: inout String) {
        var bytes: [UInt8] = []
        appendEscaped(string, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// `appendEscaped` into UTF-8 bytes.
    static func appendEscaped(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                    ])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
    }

    /// `string` as a quoted JSON string literal.
    static func quoted(_ string: String) -> String {
        var output = "\""
        appendEscaped(string, to: &output)
        output += "\""
        return output
    }

    /// A JSON number as `JSONSerialization` writes it: integral values below 10^15 as integers,
    /// others in Swift's shortest round-trip form without a trailing `.0` (`1e+16`, `0.25`);
    /// NaN and infinities, which JSON cannot carry, as `null`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The compact JSON text of `value`, byte for byte what `JSONSerialization` writes with
    /// sorted keys and unescaped slashes (keys in its order: numeric, case-insensitive).
    package static func text(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        append(value, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The compact JSON text of an object with `members`.
    package static func text(_ members: [String: JSONValue]) -> String {
        text(.object(members))
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
        case .integer(let integer)?:
            return String(integer)
        case .number(let number)? where number.isFinite && number.rounded() == number && abs(number) < 1e15:
            return String(Int(number))
        case .string(let string)?:
            return Int(string).map(String.init) ?? "null"
        default:
            return "null"
        }
    }

    private static func append(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let integer): output.append(contentsOf: String(integer).utf8)
        case .number(let number): output.append(contentsOf: Self.number(number).utf8)
        case .string(let string):
            output.append(UInt8(ascii: "\""))
            appendEscaped(string, to: &output)
            output.append(UInt8(ascii: "\""))
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                append(item, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, key) in sortedKeys(members).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(UInt8(ascii: "\""))
                appendEscaped(key, to: &output)
                output.append(contentsOf: "\":".utf8)
                append(members[key] ?? .null, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The keys in `JSONSerialization`'s `.sortedKeys` order: a numeric, case-insensitive
    /// comparison (`a9` before `a10`, `a` and `A` before `b`). Keys of lowercase letters and
    /// underscores only, the usual wire names, compare as their bytes do, which is the same order.
    static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        let keys = Array(members.keys)
        if keys.allSatisfy(isPlainName) { return keys.sorted() }
        return keys.sorted { left, right in
            left.compare(
                right,
                options: [.numeric, .caseInsensitive, .forcedOrdering],
                range: left.startIndex..<left.endIndex,
                locale: NSLocale.system
            )
                == .orderedAscending
        }
    }

    private static func isPlainName(_ key: String) -> Bool {
        key.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") }
    }
}
