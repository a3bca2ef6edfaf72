import Foundation

/// JSON carried in WebSocket frames, for the JSON dialects: parses a frame of either kind
/// (text, or UTF-8 in a binary frame, docs/metrics.md) into a Foundation object, and
/// renders Foundation objects as compact JSON frames.
///
/// A flat object (strings without escapes, integers, null: every audio delta) is read by
/// `FlatJSONObject` in one pass; anything else by `JSONSerialization`, once per frame, with
/// no `Codable` round trip. Both give the same Foundation object.
enum JSONFrame {
    /// The JSON object in `frame`, or a one-line reason why the frame is not one.
    static func object(in frame: WireFrame) -> Result<[String: Any], JSONFrameError> {
        let data: Data
        switch frame {
        case .text(var string):
            // Audio deltas and most events are flat objects: read those without Foundation.
            if let flat = string.withUTF8(FlatJSONObject.parse) { return .success(flat) }
            data = Data(string.utf8)
        case .binary(let bytes): data = Data(bytes)
        }
        guard !data.isEmpty else { return .failure(JSONFrameError(reason: "empty frame")) }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return .failure(JSONFrameError(reason: "not JSON"))
        }
        guard let object = parsed as? [String: Any] else {
            return .failure(JSONFrameError(reason: "JSON is \(kindName(of: parsed)), not an object"))
        }
        return .success(object)
    }

    /// The JSON object in `frame` with its string `type` discriminator, the shape of most
    /// dialects' messages, or a one-line reason why the frame is not one.
    static func typedObject(in frame: WireFrame) -> Result<(type: String, object: [String: Any]), JSONFrameError> {
        let object: [String: Any]
        switch self.object(in: frame) {
        case .success(let parsed): object = parsed
        case .failure(let error): return .failure(error)
        }
        guard let rawType = object["type"] else {
            return .failure(JSONFrameError(reason: "message has no \"type\""))
        }
        guard let type = rawType as? String else {
            return .failure(JSONFrameError(reason: "\"type\" is \(kindName(of: rawType)), not a string"))
        }
        return .success((type, object))
    }

    /// Compact JSON text for `object`: keys sorted, slashes unescaped, strings escaped as
    /// JSON requires. `object` must hold only JSON-compatible Foundation values.
    static func text(_ object: [String: Any]) -> String {
        do {
            let data = try JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .withoutEscapingSlashes]
            )
            return String(decoding: data, as: UTF8.self)
        } catch {
            preconditionFailure("JSONFrame.text called with a non-JSON value: \(error)")
        }
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
    static func kindName(of value: Any) -> String {
        switch value {
        case is [Any]: return "an array"
        case is String: return "a string"
        case is NSNull: return "null"
        case is NSNumber: return "a number or boolean"
        default: return "a non-object value"
        }
    }
}

/// Why a frame does not hold a JSON object.
struct JSONFrameError: Error, Hashable, Sendable {
    var reason: String
}
