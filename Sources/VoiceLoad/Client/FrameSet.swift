/// A spoken clip as prepared audio frames of one dialect: encoded once per run, sent by
/// every client.
public struct FrameSet: Sendable {
    public let utterance: PreparedUtterance
    public let frames: [PreparedAudio]

    public init(utterance: PreparedUtterance, dialect: any ClientDialect) {
        self.utterance = utterance
        self.frames = utterance.frames.map(dialect.prepareAudio)
    }

    public var frameMs: Int { utterance.frameMs }
}
