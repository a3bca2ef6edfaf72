import WSCore

/// The caller's outgoing audio stream (`Microphone`): opened by the first `say`, `silence` or
/// barge-in of an attempt, then paced frame by frame (clip audio, else silence) until it stops.
extension CallAttempt {
    /// Opens the outgoing audio stream at `now` unless it is open (then its first frame's
    /// deadline is in the result: its pacing is to start) and, with `clip`, starts speaking it
    /// at the stream's next frame slot (`micOpenAt`, `T_mic_open` of the clip).
    mutating func openMicrophone(frameMs: Int, at now: MonotonicInstant, speaking clip: FrameSet?) -> MicrophoneOpened {
        let opened = state.microphone == nil
        var stream = state.microphone ?? Microphone(frameMs: frameMs, openedAt: now)
        let micOpenAt = clip.map { stream.start($0) } ?? stream.nextFrameStart
        if opened { state.streamOpenedAt = stream.openedAt }
        state.microphone = stream
        return MicrophoneOpened(micOpenAt: micOpenAt, firstFrameDueAt: opened ? stream.nextFrameDeadline : nil)
    }

    /// The outgoing audio stream stops (a queued frame is stale).
    mutating func stopMicrophone() -> [Action] {
        state.microphone = nil
        return [.stopMicrophone]
    }

    /// The stream's next frame if it is due by `now` (clip audio, else `silence`), encoded by
    /// the dialect's codec, and the stream advances; else when the next one is due. The
    /// stream is read and advanced in place, and the driver reads nothing of the attempt for
    /// it: a read of one of its fields from the actor copies the whole attempt (measured with
    /// bench/instructions.sh: about 1,000 instructions a frame).
    mutating func takeDueFrame(by now: MonotonicInstant, silence: PreparedAudio) -> NextFrame {
        guard let deadline = state.microphone?.nextFrameDeadline else { return .stopped }
        guard deadline <= now, let next = state.microphone?.takeNextFrame(silence: silence) else { return .notYet(at: deadline) }
        return .due(DueFrame(frame: encodeAudio(next.frame), deadline: next.deadline, clipFinished: next.clipFinished))
    }
}
