/// The query part of a URL (`a=1&b=2`): percent-encoding and secret redaction.
///
/// Works on the raw text so a redacted URL keeps the order and spelling of every other
/// parameter exactly as the user wrote it.
package enum URLQuery {
    /// Parameter names whose values are replaced by `REDACTED` (compared case-insensitively).
    package static let secretNames: Set<String> = [
        "token", "api_key", "apikey", "key", "access_token", "auth", "password", "secret",
        "authorization",
    ]

    /// Name endings that also mark a secret (`id_token`, `authToken`, `x-api-key`, `client_secret`,
    /// `conversation_signature`).
    package static let secretSuffixes = ["token", "_key", "-key", "apikey", "secret", "password", "signature"]

    package static let redactedValue = "REDACTED"

    /// Whether a parameter of this (percent-decoded) name carries a credential.
    package static func isSecret(name: String) -> Bool {
        let lowered = name.lowercased()
        if secretNames.contains(lowered) { return true }
        return secretSuffixes.contains { lowered.hasSuffix($0) }
    }

    /// The query with the value of every secret parameter replaced by `REDACTED`.
    package static func redacting(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            guard isSecret(name: percentDecoded(name)) else { return String(pair) }
            return "\(name)=\(redactedValue)"
        }.joined(separator: "&")
    }

    /// A whole URL string with secret query values redacted (for error messages about input
    /// that did not parse; anything after `#` is kept as is).
    package static func redactingURL(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let afterQuestion = url[url.index(after: question)...]
        let fragmentStart = afterQuestion.firstIndex(of: "#") ?? url.endIndex
        let query = String(url[url.index(after: question)..<fragmentStart])
        return String(url[...question]) + redacting(query) + String(url[fragmentStart...])
    }

    /// The value of the first parameter with this name (percent-decoded, `+` kept as is).
    package static func value(of name: String, in query: String) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if percentDecoded(parts[0]) == name {
                return parts.count > 1 ? percentDecoded(parts[1]) : ""
            }
        }
        return nil
    }

    /// RFC 3986 percent-encoding: everything but unreserved characters is encoded.
    package static func percentEncoded(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
            }
        }
        return out
    }

    /// Decodes `%XX` sequences; malformed sequences are kept literally.
    package static func percentDecoded<S: StringProtocol>(_ text: S) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> String {
        String(UnicodeScalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
