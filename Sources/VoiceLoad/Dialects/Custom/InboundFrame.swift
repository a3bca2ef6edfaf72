import WSCore

/// One inbound frame as the matcher language sees it (docs/custom-dialects.md): its kind
/// (`@frame`), its text (`@raw`) and its JSON (`$…`), each computed at most once per frame.
package struct InboundFrame {
    package enum Kind: String {
        case text
        case binary
    }

    package let kind: Kind
    /// The parsed JSON value (of any kind); nil when the frame is not JSON or was not parsed.
    package let json: JSONValue?
    /// Why the frame is not JSON, when it was parsed and that failed.
    package let parseFailure: String?
    /// The frame's text: always for text frames; for binary frames only when they are read
    /// as JSON, the dialect uses `@raw`, and the bytes are valid UTF-8.
    package let raw: String?
    /// The payload of a binary frame.
    package let bytes: [UInt8]?

    /// Reads `frame`. Binary frames are parsed as UTF-8 JSON only when `parsesBinaryAsJSON`
    /// (the dialect has no raw binary audio rule).
    package init(_ frame: WireFrame, parsesBinaryAsJSON: Bool, needsRawText: Bool) {
        let parsed: (json: JSONValue?, failure: String?)
        switch frame {
        case .text(let string):
            kind = .text
            raw = string
            bytes = nil
            parsed = Self.parse(string)
        case .binary(let payload):
            kind = .binary
            bytes = payload
            raw = parsesBinaryAsJSON && needsRawText ? String(validating: payload, as: UTF8.self) : nil
            parsed = parsesBinaryAsJSON ? Self.parse(payload) : (nil, nil)
        }
        json = parsed.json
        parseFailure = parsed.failure
    }

    private static func parse(_ text: String) -> (json: JSONValue?, failure: String?) {
        guard !text.isEmpty else { return (nil, "empty frame") }
        guard let value = JSONValue(parsing: text) else { return (nil, "not JSON") }
        return (value, nil)
    }

    private static func parse(_ bytes: [UInt8]) -> (json: JSONValue?, failure: String?) {
        guard !bytes.isEmpty else { return (nil, "empty frame") }
        guard let value = try? JSONValue.parse(bytes) else { return (nil, "not JSON") }
        return (value, nil)
    }
}
