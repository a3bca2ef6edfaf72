/// What the simulated agent says, independent of the wire protocol.
///
/// The server side of a dialect encodes these into frames; the client side decodes those
/// frames into `NormalizedEvent`s.
public enum AgentOutput: Sendable, Hashable {
    case sessionStarted(sessionID: String, conversationID: String)
    case ready
    /// One chunk of agent speech, encoded in the dialect's output format.
    case audio([UInt8])
    case interrupted
    case toolCall(name: String, status: String)
    case transcript(TranscriptLine)
    case error(message: String)
    case ended(transcript: [TranscriptLine])
}

/// One line of a conversation transcript.
public struct TranscriptLine: Sendable, Hashable, Codable {
    public var role: String
    public var text: String
    public var isFinal: Bool

    public init(role: String, text: String, isFinal: Bool = true) {
        self.role = role
        self.text = text
        self.isFinal = isFinal
    }
}
