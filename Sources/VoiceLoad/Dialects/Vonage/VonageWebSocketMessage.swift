import Foundation

/// The text messages of Vonage's Voice API WebSocket (docs/telephony.md): Vonage sends JSON with
/// an `event` (`websocket:connected` first, then `websocket:dtmf`, `websocket:notify`,
/// `websocket:cleared`), the agent JSON with an `action` (`clear`, `notify`); audio travels in
/// binary frames both ways.
enum VonageWebSocketMessage {
    static let connected = "websocket:connected"
    static let dtmf = "websocket:dtmf"
    static let notified = "websocket:notify"
    static let cleared = "websocket:cleared"
    static let clear = "clear"
    static let notify = "notify"

    /// The `content-type` of `websocket:connected` for `format`: `audio/l16;rate=16000`.
    static func contentType(_ format: AudioFormat) -> String {
        "audio/l16;rate=\(format.sampleRateHz)"
    }

    /// A `notify` payload as a playback label: its compact JSON text (keys sorted).
    static func label(payload: JSONValue?) -> String? {
        payload.map(JSONText.text)
    }

    /// The payload a label stands for: the JSON it holds, else the label as a string.
    static func payload(label: String) -> JSONValue {
        JSONValue(parsing: label) ?? .string(label)
    }
}
