import Foundation
import WSCore

/// One telephony media-stream message as parsed from a frame: a JSON object with a string
/// `event` discriminator, the shape Twilio, Telnyx, Plivo and Exotel share (docs/telephony.md),
/// and Vonage's control messages (`event` one way, `action` the other). Shared by both sides of
/// those dialects.
struct MediaStreamMessage {
    /// The discriminator (`event`, or Vonage's `action`).
    var event: String
    /// The whole message object.
    var object: [String: JSONValue]

    /// The message in `frame` (JSON in a text or binary frame) with its string discriminator
    /// `key`, or why the frame is not one.
    static func parse(_ frame: WireFrame, discriminator key: String = "event") -> Result<MediaStreamMessage, JSONFrameError> {
        let object: [String: JSONValue]
        switch JSONFrame.object(in: frame) {
        case .success(let parsed): object = parsed
        case .failure(let error): return .failure(error)
        }
        guard let rawEvent = object[key] else {
            return .failure(JSONFrameError(reason: "message has no \"\(key)\""))
        }
        guard let event = rawEvent.stringValue else {
            return .failure(JSONFrameError(reason: "\"\(key)\" is \(JSONFrame.kindName(of: rawEvent)), not a string"))
        }
        return .success(MediaStreamMessage(event: event, object: object))
    }

    /// The object member `key` of the message (`media`, `mark`, `start`), if there is one.
    func member(_ key: String) -> [String: JSONValue]? {
        object[key]?.objectValue
    }

    /// `media.payload` decoded (empty for ""), or why the message has no usable payload.
    func mediaPayload() -> Result<[UInt8], JSONFrameError> {
        guard let media = member("media") else { return .failure(JSONFrameError(reason: "media message without media")) }
        guard let base64 = media["payload"]?.stringValue else {
            return .failure(JSONFrameError(reason: "media message without a string payload"))
        }
        if base64.isEmpty { return .success([]) }
        guard let bytes = JSONFrame.base64Decoded(base64) else {
            return .failure(JSONFrameError(reason: "media payload is not valid base64 (\(base64.utf8.count) characters)"))
        }
        return .success(bytes)
    }

    /// What an agent's audio message means to the caller: agent audio in `format` (none for an
    /// empty payload), or a malformed frame.
    func agentAudio(format: AudioFormat) -> DecodedFrame {
        switch mediaPayload() {
        case .success(let bytes):
            return DecodedFrame(events: bytes.isEmpty ? [] : [.agentAudio(AgentAudioChunk(audio: bytes, format: format))])
        case .failure(let error):
            return [.malformed(reason: error.reason)]
        }
    }

    /// What a caller's `media` means to the agent: its audio (none for an empty payload).
    func callerAudio() throws(DialectDecodingError) -> [ClientIntent] {
        switch mediaPayload() {
        case .success(let bytes): return bytes.isEmpty ? [] : [.audio(bytes)]
        case .failure(let error): throw .malformed(error.reason)
        }
    }

    /// `mark.name`, if the message has one.
    func markName() -> String? {
        member("mark")?["name"]?.stringValue
    }
}
