import WSCore

/// The pacing of a client's outgoing audio stream: frame k of the stream is due at
/// `openedAt + (k+1)·frame` (docs/metrics.md), whatever the lag of earlier
/// frames, so pacing error never accumulates. Between clips it streams silence.
struct Microphone: Sendable {
    let frameUs: Int64
    let openedAt: MonotonicInstant
    /// Index in the stream of the next frame to send.
    private(set) var nextFrameIndex = 0
    private var clip: FrameSet?
    private var clipStartIndex = 0

    init(frameMs: Int, openedAt: MonotonicInstant) {
        self.frameUs = Int64(frameMs) * 1_000
        self.openedAt = openedAt
    }

    /// Whether a clip is still being sent.
    var isSpeaking: Bool { clip != nil }

    /// The moment frame `index` of the stream is due.
    func deadline(ofFrame index: Int) -> MonotonicInstant {
        openedAt.advanced(byMicroseconds: Int64(index + 1) * frameUs)
    }

    /// The moment the next frame is due.
    var nextFrameDeadline: MonotonicInstant { deadline(ofFrame: nextFrameIndex) }

    /// Where the next frame begins in stream time: `T_mic_open` of a clip started now.
    var nextFrameStart: MonotonicInstant {
        openedAt.advanced(byMicroseconds: Int64(nextFrameIndex) * frameUs)
    }

    /// Starts `frames` at the next frame slot; returns that slot's start (`T_mic_open`).
    mutating func start(_ frames: FrameSet) -> MonotonicInstant {
        clip = frames
        clipStartIndex = nextFrameIndex
        return nextFrameStart
    }

    /// The frame to send in the next slot (clip audio or silence) and its deadline; advances.
    mutating func takeNextFrame(silence: PreparedAudio) -> (frame: PreparedAudio, deadline: MonotonicInstant, clipFinished: Bool) {
        let index = nextFrameIndex
        nextFrameIndex += 1
        guard let clip else { return (silence, deadline(ofFrame: index), false) }
        let clipIndex = index - clipStartIndex
        let frame = clip.frames[clipIndex]
        let finished = clipIndex + 1 >= clip.frames.count
        if finished { self.clip = nil }
        return (frame, deadline(ofFrame: index), finished)
    }
}
