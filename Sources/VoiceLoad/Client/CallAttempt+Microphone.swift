import WSCore

/// The caller's outgoing audio stream (`Microphone`): opened by the first `say`, `silence` or
/// barge-in of an attempt, then paced frame by frame (clip audio, else silence) until it stops.
extension CallAttempt {
    /// Opens the outgoing audio stream at `now` unless it is open (`opened`: its pacing is to
    /// start) and, with `clip`, starts speaking it at the stream's next frame slot. `micOpenAt`
    /// is that slot's start (`T_mic_open` of the clip).
    mutating func openMicrophone(
        frameMs: Int,
        at now: MonotonicInstant,
        speaking clip: FrameSet?
    ) -> (micOpenAt: MonotonicInstant, opened: Bool) {
        let opened = microphone == nil
        var stream = microphone ?? Microphone(frameMs: frameMs, openedAt: now)
        let micOpenAt = clip.map { stream.start($0) } ?? stream.nextFrameStart
        if opened { streamOpenedAt = stream.openedAt }
        microphone = stream
        return (micOpenAt, opened)
    }

    /// The outgoing audio stream stops (a queued frame is stale).
    mutating func stopMicrophone() -> [Action] {
        microphone = nil
        return [.stopMicrophone]
    }

    /// The stream's next frame if it is due by `now` (clip audio, else `silence`), encoded by
    /// the dialect's codec; the stream advances. nil when none is due.
    mutating func takeDueFrame(by now: MonotonicInstant, silence: PreparedAudio) -> DueFrame? {
        // Read and advanced in place: no copy of the stream per frame.
        guard let deadline = microphone?.nextFrameDeadline, deadline <= now,
            let next = microphone?.takeNextFrame(silence: silence)
        else { return nil }
        return DueFrame(frame: encodeAudio(next.frame), deadline: next.deadline, clipFinished: next.clipFinished)
    }
}
