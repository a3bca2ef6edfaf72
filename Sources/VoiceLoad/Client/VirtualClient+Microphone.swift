import WSCore

/// The caller's outgoing audio stream (`CallAttempt+Microphone`): opened by the first `say`,
/// `silence` or barge-in of an attempt, then paced frame by frame with the loop's pacer until
/// hang-up.
extension VirtualClient: PacedStream {
    /// Opens the stream if it is not open yet and, with `clip`, starts speaking it at the next
    /// frame slot. Returns that slot's start (`T_mic_open` of the clip).
    @discardableResult
    func openMicrophone(speaking clip: FrameSet? = nil) -> MonotonicInstant {
        let stream = attempt.openMicrophone(frameMs: plan.frameMs, at: .now(), speaking: clip)
        if let dueAt = stream.firstFrameDueAt { pacer.schedule(self, token: pacingToken, at: dueAt) }
        if let clip { recording?.clipStarted(clip, at: stream.micOpenAt) }
        return stream.micOpenAt
    }

    /// The pacer's call, on the client's loop: the frame queued with `token` is due (ignored
    /// when the stream it was queued for has stopped since).
    package nonisolated func pacingDue(token: Int) {
        enter(.pacingDue(token: token))
    }

    /// Sends every frame that is due, records each one's lag, and queues the next with the
    /// loop's pacer.
    func sendDueFrames() {
        guard let connection else { return }
        var now = MonotonicInstant.now()
        var clipFinished = false
        sending: while true {
            switch attempt.takeDueFrame(by: now, silence: plan.silenceFrame) {
            case .due(let due):
                connection.send(due.frame)
                loopRecorder.recordFrameSent(lagUs: now.microseconds(since: due.deadline), sentAt: now)
                clipFinished = clipFinished || due.clipFinished
                now = MonotonicInstant.now()
            case .notYet(let dueAt):
                pacer.schedule(self, token: pacingToken, at: dueAt)
                break sending
            case .stopped:
                break sending
            }
        }
        if clipFinished { checkPendingWait() }
    }

    func stopMicrophone() {
        perform(attempt.stopMicrophone())
    }
}
