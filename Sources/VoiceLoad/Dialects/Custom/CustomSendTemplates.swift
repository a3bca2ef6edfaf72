/// The templates of a custom dialect's outbound messages (docs/custom-dialects.md, and
/// `audio.input.json`).
struct CustomSendTemplates: Sendable {
    /// Sent right after the socket opens, and for the `start` intent.
    var onOpen: [MessageTemplate] = []
    /// The audio message; nil when audio goes out as raw binary frames.
    var audio: MessageTemplate?
    var interrupt: MessageTemplate?
    var commit: MessageTemplate?
    var keepAlive: MessageTemplate?
    var close: MessageTemplate?
    /// A user text message (`${text}`).
    var text: MessageTemplate?
    /// Whether messages go out as UTF-8 in binary frames instead of text frames.
    var messagesAsBinary = false

    /// The frame carrying `text`.
    func frame(_ text: String) -> WireFrame {
        messagesAsBinary ? .binary(Array(text.utf8)) : .text(text)
    }
}
