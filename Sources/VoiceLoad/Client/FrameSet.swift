/// A spoken clip as wire frames of one dialect: encoded once per run, sent by every client.
public struct FrameSet: Sendable {
    public let utterance: PreparedUtterance
    public let frames: [EncodedFrame]

    /// Encodes every frame of `utterance` with `dialect`; nil when the dialect has no audio message.
    public init?(utterance: PreparedUtterance, dialect: any ClientDialect) {
        var frames: [EncodedFrame] = []
        frames.reserveCapacity(utterance.frames.count)
        for payload in utterance.frames {
            guard let wire = dialect.encode(.audio(payload)) else { return nil }
            frames.append(EncodedFrame(wire))
        }
        self.utterance = utterance
        self.frames = frames
    }

    public var frameMs: Int { utterance.frameMs }
}
