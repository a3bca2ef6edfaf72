import Foundation

/// Text made safe for HTML and XML, and the figures every rendered report shows the same way.
enum HTMLText {
    /// `&`, `<`, `>`, `"` and `'` as entities; control characters XML forbids dropped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\n", "\t": escaped.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Milliseconds with one decimal, "n/a" when absent.
    static func ms(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "n/a"
    }

    /// A threshold figure in its unit: `812.3 ms`, `0.5%`, `3`.
    static func figure(_ value: Double?, unit: String) -> String {
        guard let value else { return "n/a" }
        let number = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.3g", value)
        switch unit {
        case "": return number
        case "%": return number + "%"
        default: return number + " " + unit
        }
    }
}
