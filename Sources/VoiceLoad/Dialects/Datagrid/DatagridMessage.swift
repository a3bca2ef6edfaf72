import Foundation
import WSCore

/// One Datagrid message as parsed from a frame: `{"type": <string>, "payload": <object, optional>}`
/// (docs/dialects.md). Shared by the client and the server side of the dialect.
struct DatagridMessage {
    /// The `type` discriminator.
    var type: String
    /// The `payload` object; nil when the message has none (absent or `null`).
    var payload: [String: JSONValue]?

    /// The message in `frame` (text or binary JSON), or why the frame is not a Datagrid message.
    static func parse(_ frame: WireFrame) -> Result<DatagridMessage, JSONFrameError> {
        let type: String
        let object: [String: JSONValue]
        switch JSONFrame.typedObject(in: frame) {
        case .success(let message): (type, object) = message
        case .failure(let error): return .failure(error)
        }
        switch object["payload"] {
        case nil, .some(.null):
            return .success(DatagridMessage(type: type, payload: nil))
        case .some(.object(let payload)):
            return .success(DatagridMessage(type: type, payload: payload))
        case .some(let other):
            return .failure(
                JSONFrameError(
                    reason: "\"\(type)\" payload is \(JSONFrame.kindName(of: other)), not an object"
                )
            )
        }
    }

    /// The string member `key` of the payload, if there is one.
    func payloadString(_ key: String) -> String? {
        payload?[key]?.stringValue
    }

    /// The wire names of the message types (docs/dialects.md).
    enum Name {
        // Client → server.
        static let start = "start"
        static let audio = "audio"
        static let interrupt = "interrupt"
        static let stop = "stop"
        static let text = "text"
        // Server → client.
        static let started = "started"
        static let ready = "ready"
        static let toolCall = "tool_call"
        static let interrupted = "interrupted"
        static let error = "error"
        static let transcript = "transcript"
        static let citation = "citation"
        static let ended = "ended"
    }
}
