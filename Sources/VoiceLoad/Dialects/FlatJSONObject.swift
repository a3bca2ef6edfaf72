import Foundation

/// A fast reader for the commonest shape of a streaming voice message: one JSON object whose
/// members are all strings without escapes, integers or null, such as an OpenAI audio delta
/// `{"type":"response.output_audio.delta","response_id":"…","output_index":0,"delta":"…"}`.
///
/// It gives the same object `JSONSerialization` would (`String`, `NSNumber`, `NSNull`
/// values), in a single pass and without Foundation's parser. Anything else — nested
/// containers, escapes, fractions, booleans, any doubt about the syntax — gives nil, and the
/// caller parses the frame in full. It never accepts what the full parser would reject.
package enum FlatJSONObject {
    /// The flat object in `bytes`, or nil when the text is not one. `bytes` must be valid UTF-8
    /// (a `String`'s, as a text frame's is): invalid sequences inside strings are not checked.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: Any]? {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        var object: [String: Any] = [:]
        reader.skipWhitespace()
        if reader.take(UInt8(ascii: "}")) {
            return reader.isAtEndAfterWhitespace ? object : nil
        }
        while true {
            reader.skipWhitespace()
            guard let key = reader.string() else { return nil }
            reader.skipWhitespace()
            guard reader.take(UInt8(ascii: ":")) else { return nil }
            reader.skipWhitespace()
            guard let value = reader.scalarValue() else { return nil }
            object[key] = value
            reader.skipWhitespace()
            if reader.take(UInt8(ascii: ",")) { continue }
            guard reader.take(UInt8(ascii: "}")) else { return nil }
            return reader.isAtEndAfterWhitespace ? object : nil
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        var isAtEndAfterWhitespace: Bool {
            mutating get {
                skipWhitespace()
                return index == bytes.count
            }
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string without escapes or control characters; nil for anything else.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            // Foundation drops a byte-order mark that opens a string; leave such text to it.
            if index + 3 <= bytes.count, bytes[index] == 0xEF, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF { return nil }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        /// A string, an integer (as `NSNumber`) or null (as `NSNull`).
        mutating func scalarValue() -> Any? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                return string()
            case UInt8(ascii: "n"):
                guard index + 4 <= bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
                    bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
                else { return nil }
                index += 4
                return NSNull()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return integer()
            default:
                return nil
            }
        }

        /// `-?(0|[1-9][0-9]*)` of at most 18 digits, followed by a delimiter.
        mutating func integer() -> NSNumber? {
            let negative = take(UInt8(ascii: "-"))
            let start = index
            var value = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                guard index - start < 18 else { return nil }  // larger: the full parser decides
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            let digits = index - start
            guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
            if index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                    break
                default: return nil  // a fraction or an exponent: the full parser decides
                }
            }
            return NSNumber(value: negative ? -value : value)
        }
    }
}
