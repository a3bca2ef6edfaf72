import WSCore

/// The client's outgoing audio stream: opened by the first `say`, `silence` or barge-in of a
/// session, then paced frame by frame (clip audio, else silence) until hang-up.
extension VirtualClient: PacedStream {
    /// Opens the stream if it is not open yet and, with `clip`, starts speaking it at the next
    /// frame slot. Returns that slot's start (`T_mic_open` of the clip).
    @discardableResult
    func openMicrophone(speaking clip: FrameSet? = nil) -> MonotonicInstant {
        let stream = caller.openMicrophone(frameMs: plan.frameMs, at: .now(), speaking: clip)
        if stream.opened { schedulePacing() }
        return stream.micOpenAt
    }

    /// Queues the stream's next frame with the loop's pacer.
    func schedulePacing() {
        guard let microphone = caller.microphone else { return }
        pacer.schedule(self, token: pacingToken, at: microphone.deadline(ofFrame: microphone.nextFrameIndex))
    }

    /// The pacer's call, on the client's loop: the frame queued with `token` is due (ignored
    /// when the stream it was queued for has stopped since).
    package nonisolated func pacingDue(token: Int) {
        assumeIsolated { client in
            guard token == client.pacingToken else { return }
            client.sendDueFrames()
        }
    }

    /// Sends every frame that is due, records each one's lag, and queues the next.
    private func sendDueFrames() {
        guard var microphone = caller.microphone, let connection else { return }
        var now = MonotonicInstant.now()
        var clipFinished = false
        while microphone.deadline(ofFrame: microphone.nextFrameIndex) <= now {
            let next = microphone.takeNextFrame(silence: plan.silenceFrame)
            connection.send(codec.audioFrame(next.frame))
            loopRecorder.recordFrameSent(lagUs: now.microseconds(since: next.deadline), sentAt: now)
            clipFinished = clipFinished || next.clipFinished
            now = MonotonicInstant.now()
        }
        caller.microphone = microphone
        schedulePacing()
        if clipFinished { checkPendingWait() }
    }

    func stopMicrophone() {
        perform(caller.stopMicrophone())
    }
}
