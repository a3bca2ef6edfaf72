/// A spoken clip as prepared audio frames of one dialect: encoded once per run, sent by
/// every client.
package struct FrameSet: Sendable {
    package let utterance: PreparedUtterance
    package let frames: [PreparedAudio]

    package init(utterance: PreparedUtterance, dialect: any ClientDialect) {
        self.utterance = utterance
        self.frames = dialect.prepareClip(utterance.frames)
    }

    package var frameMs: Int { utterance.frameMs }
}
