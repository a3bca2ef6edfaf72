import Foundation

/// Base64 as ADK servers send it: standard, or base64url (`-`, `_`) with or without padding,
/// which is what pydantic makes of `bytes` in a serialized ADK `Event` (docs/dialects.md).
enum ADKBase64 {
    /// The bytes `text` encodes in either alphabet, padded or not; nil when it is not base64.
    static func decode(_ text: String) -> [UInt8]? {
        let utf8 = text.utf8
        let isURLSafe = utf8.contains { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        guard isURLSafe || utf8.count % 4 != 0 else {
            return Data(base64Encoded: text).map { [UInt8]($0) }
        }
        let remainder = utf8.count % 4
        guard remainder != 1 else { return nil }
        var standard: [UInt8] = []
        standard.reserveCapacity(utf8.count + 3)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: standard.append(byte)
            }
        }
        if remainder != 0 {
            standard.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 4 - remainder))
        }
        return Data(base64Encoded: Data(standard)).map { [UInt8]($0) }
    }

    /// `bytes` as base64url with padding, as pydantic serializes ADK `Event` bytes.
    static func urlSafeEncoded(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }) else { return text }
        text = String(
            decoding: text.utf8.map { byte -> UInt8 in
                switch byte {
                case UInt8(ascii: "+"): return UInt8(ascii: "-")
                case UInt8(ascii: "/"): return UInt8(ascii: "_")
                default: return byte
                }
            },
            as: UTF8.self
        )
        return text
    }
}
