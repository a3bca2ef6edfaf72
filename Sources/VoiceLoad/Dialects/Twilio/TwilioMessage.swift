import Foundation

/// One Twilio Media Streams message as parsed from a frame: a JSON object with a string
/// `event` discriminator (PROTOCOLS.md §10.2). Shared by both sides of the dialect.
struct TwilioMessage {
    /// The `event` discriminator.
    var event: String
    /// The whole message object.
    var object: [String: Any]

    /// The message in `frame` (JSON in a text or binary frame), or why the frame is not one.
    static func parse(_ frame: WireFrame) -> Result<TwilioMessage, JSONFrameError> {
        let object: [String: Any]
        switch JSONFrame.object(in: frame) {
        case .success(let parsed): object = parsed
        case .failure(let error): return .failure(error)
        }
        guard let rawEvent = object["event"] else {
            return .failure(JSONFrameError(reason: "message has no \"event\""))
        }
        guard let event = rawEvent as? String else {
            return .failure(JSONFrameError(reason: "\"event\" is \(JSONFrame.kindName(of: rawEvent)), not a string"))
        }
        return .success(TwilioMessage(event: event, object: object))
    }

    /// The object member `key` of the message (`media`, `mark`, `start`), if there is one.
    func member(_ key: String) -> [String: Any]? {
        object[key] as? [String: Any]
    }

    /// `media.payload` decoded (empty for ""), or why the message has no usable payload.
    func mediaPayload() -> Result<[UInt8], JSONFrameError> {
        guard let media = member("media") else { return .failure(JSONFrameError(reason: "media message without media")) }
        guard let base64 = media["payload"] as? String else {
            return .failure(JSONFrameError(reason: "media message without a string payload"))
        }
        if base64.isEmpty { return .success([]) }
        guard let bytes = JSONFrame.base64Decoded(base64) else {
            return .failure(JSONFrameError(reason: "media payload is not valid base64 (\(base64.utf8.count) characters)"))
        }
        return .success(bytes)
    }

    /// `mark.name`, if the message has one.
    func markName() -> String? {
        member("mark")?["name"] as? String
    }

    /// The wire names of the events (PROTOCOLS.md §10.2).
    enum Name {
        // Twilio (vload) → agent server.
        static let connected = "connected"
        static let start = "start"
        static let dtmf = "dtmf"
        static let stop = "stop"
        // Both directions.
        static let media = "media"
        static let mark = "mark"
        // Agent server → Twilio (vload).
        static let clear = "clear"
    }
}
