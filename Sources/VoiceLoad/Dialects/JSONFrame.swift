import WSCore

/// JSON carried in WebSocket frames, for the JSON dialects: parses a frame of either kind
/// (text, or UTF-8 in a binary frame, docs/metrics.md) into a `JSONValue` object in one pass,
/// and renders `JSONValue` objects as compact JSON frames.
enum JSONFrame {
    /// The JSON object in `frame`, or a one-line reason why the frame is not one.
    static func object(in frame: WireFrame) -> Result<[String: JSONValue], JSONFrameError> {
        let parsed: JSONValue
        do {
            switch frame {
            case .text(var string):
                guard !string.isEmpty else { return .failure(JSONFrameError(reason: "empty frame")) }
                parsed = try string.withUTF8 { bytes throws(JSONSyntaxError) in try JSONValue.parse(bytes, validatedUTF8: true) }
            case .binary(let bytes):
                guard !bytes.isEmpty else { return .failure(JSONFrameError(reason: "empty frame")) }
                parsed = try JSONValue.parse(bytes)
            }
        } catch {
            return .failure(JSONFrameError(reason: "not JSON"))
        }
        guard case .object(let object) = parsed else {
            return .failure(JSONFrameError(reason: "JSON is \(parsed.kindName), not an object"))
        }
        return .success(object)
    }

    /// The JSON object in `frame` with its string `type` discriminator, the shape of most
    /// dialects' messages, or a one-line reason why the frame is not one.
    static func typedObject(in frame: WireFrame) -> Result<(type: String, object: [String: JSONValue]), JSONFrameError> {
        let object: [String: JSONValue]
        switch self.object(in: frame) {
        case .success(let parsed): object = parsed
        case .failure(let error): return .failure(error)
        }
        guard let rawType = object["type"] else {
            return .failure(JSONFrameError(reason: "message has no \"type\""))
        }
        guard case .string(let type) = rawType else {
            return .failure(JSONFrameError(reason: "\"type\" is \(rawType.kindName), not a string"))
        }
        return .success((type, object))
    }

    /// Compact JSON text for `object`: keys sorted, slashes unescaped, strings escaped as
    /// JSON requires, non-finite numbers as null (`JSONText`).
    static func text(_ object: [String: JSONValue]) -> String {
        JSONText.text(.object(object))
    }

    /// `text` as a frame: a text frame, or its UTF-8 bytes in a binary frame.
    static func frame(_ text: String, asBinary: Bool) -> WireFrame {
        asBinary ? .binary(Array(text.utf8)) : .text(text)
    }

    /// The bytes `base64` encodes, or nil when it is not valid (padded) base64.
    static func base64Decoded(_ base64: String) -> [UInt8]? {
        Base64Decoder.decode(base64)
    }

    /// A short name for the kind of a parsed JSON value, for malformed-frame reasons.
    static func kindName(of value: JSONValue) -> String {
        value.kindName
    }
}

/// Why a frame does not hold a JSON object.
struct JSONFrameError: Error, Hashable, Sendable {
    var reason: String
}
