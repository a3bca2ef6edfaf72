/// A string as a JSON string literal (quotes included), for frames built by concatenation
/// on hot paths, where per-connection values (ids, SIDs) sit next to pre-encoded base64.
///
/// Escapes what RFC 8259 requires (`"`, `\` and control characters) and nothing else, so
/// the result matches what `JSONSerialization` would write with unescaped slashes.
enum JSONStringLiteral {
    static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
        return out
    }
}
