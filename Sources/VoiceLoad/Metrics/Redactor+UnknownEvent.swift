import Foundation
import WSCore

extension Redactor {
    /// The example of an unknown frame for the report: a JSON frame rewritten with its keys
    /// sorted, the string values of secret-looking keys (`token`, `api_key`, `*_signature`…)
    /// masked and long base64 strings (audio) replaced by their length; then the run's own
    /// secrets masked, on one line, cut to `UnknownEventType.maxExampleBytes`. A binary frame
    /// that is not JSON is described by its size.
    package func unknownEventExample(_ frame: WireFrame) -> String {
        let limit = UnknownEventType.maxExampleBytes
        let text: String
        switch frame {
        case .text(let string):
            text = Self.scrubbedJSON(string) ?? string
        case .binary(let bytes):
            guard let string = String(validating: bytes, as: UTF8.self), let scrubbed = Self.scrubbedJSON(string) else {
                return "binary frame, \(bytes.count) bytes"
            }
            text = scrubbed
        }
        // A window a secret longer than the cut, so a secret straddling it is masked, never halved.
        let window = String(text.prefix(limit + (secrets.first?.count ?? 0) + 8))
        return Self.cut(Self.oneLine(redact(window)), toBytes: limit)
    }

    /// Strings at least this long made of base64 (or base64url) characters only are shortened.
    static let longBase64Characters = 64

    /// `text` as JSON with secrets masked and base64 shortened; nil when it is not a JSON object or array.
    static func scrubbedJSON(_ text: String) -> String? {
        guard let value = JSONValue(parsing: text) else { return nil }
        switch value {
        case .object, .array: return JSONText.text(scrubbed(value, secret: false))
        default: return nil
        }
    }

    /// `value` with strings under a secret-looking key masked and long base64 strings shortened.
    private static func scrubbed(_ value: JSONValue, secret: Bool) -> JSONValue {
        switch value {
        case .object(let object):
            var copy: [String: JSONValue] = [:]
            for (key, member) in object { copy[key] = scrubbed(member, secret: URLQuery.isSecret(name: key)) }
            return .object(copy)
        case .array(let array):
            return .array(array.map { scrubbed($0, secret: secret) })
        case .string(let string):
            if secret, !string.isEmpty { return .string(mask) }
            if isLongBase64(string) { return .string("<base64, \(string.utf8.count) characters>") }
            return value
        default:
            return value
        }
    }

    private static func isLongBase64(_ string: String) -> Bool {
        string.utf8.count >= longBase64Characters
            && string.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "+/=-_".utf8.contains(byte)
                }
            }
    }

    /// `text` cut to at most `limit` UTF-8 bytes, whole characters, `…` marking a cut.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let ellipsis = "…"
        var kept = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > limit - ellipsis.utf8.count { break }
            kept.append(character)
            bytes += size
        }
        return kept + ellipsis
    }
}
