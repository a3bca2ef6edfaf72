/// A spoken clip as prepared audio frames of one dialect: encoded once per run, sent by
/// every client.
package struct FrameSet: Sendable {
    package let utterance: PreparedUtterance
    package let frames: [PreparedAudio]

    /// The dialect's frames of `utterance`. Where its encoding changes the audio beyond the
    /// input format (Opus), the speech span is found on the audio as the agent hears it
    /// (`ClientDialect.heardSamples`), as it is on the input format's audio for every other
    /// dialect (docs/metrics.md, "The audio clock").
    package init(utterance: PreparedUtterance, dialect: any ClientDialect) {
        let frames = dialect.prepareClip(utterance.frames)
        self.frames = frames
        self.utterance = dialect.heardSamples(of: frames).map { utterance.redetected(on: $0) } ?? utterance
    }

    package var frameMs: Int { utterance.frameMs }
}
