import WSCore

/// The templates of a custom dialect's outbound messages (docs/custom-dialects.md, and
/// `audio.input.json`).
package struct CustomSendTemplates: Sendable {
    /// Sent right after the socket opens, and for the `start` intent.
    package var onOpen: [MessageTemplate] = []
    /// The audio message; nil when audio goes out as raw binary frames.
    package var audio: MessageTemplate?
    package var interrupt: MessageTemplate?
    package var commit: MessageTemplate?
    package var keepAlive: MessageTemplate?
    package var close: MessageTemplate?
    /// A user text message (`${text}`).
    package var text: MessageTemplate?
    /// Whether messages go out as UTF-8 in binary frames instead of text frames.
    package var messagesAsBinary = false

    /// The frame carrying `text`.
    package func frame(_ text: String) -> WireFrame {
        messagesAsBinary ? .binary(Array(text.utf8)) : .text(text)
    }
}
