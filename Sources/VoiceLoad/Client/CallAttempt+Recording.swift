import WSCore

/// The agent's audio kept for a call that may be recorded (docs/recordings.md): only when the
/// attempt was made with `agentAudioCaptureBytes`; otherwise nothing here runs.
extension CallAttempt {
    /// `chunk` arrived at `at`: the tracker places it in playback, and the capture keeps it
    /// where it plays. Out of line, so that the frame path of an attempt that does not record
    /// stays as it was.
    @inline(never)
    mutating func captureAgentAudio(_ chunk: AgentAudioChunk, at: MonotonicInstant) {
        let drainsBefore = state.tracker.playback.drainsAt
        state.tracker.agentAudio(chunk, at: at)
        state.agentCapture?.chunkArrived(
            chunk,
            at: at,
            drainsBefore: drainsBefore,
            drainsAfter: state.tracker.playback.drainsAt,
            turn: state.tracker.agentTurnsStarted
        )
    }

    /// A frame decoded from a media packet (a WebRTC call's Opus) is about to be decoded: the
    /// packet joins the capture's packets, and the agent audio decoded from it refers to it.
    @inline(never)
    mutating func captureMediaPacket(_ payload: [UInt8]) {
        state.agentCapture?.keepPacket(payload)
    }

    /// Playback was flushed at `at` (an acknowledged barge-in).
    mutating func captureFlush(at: MonotonicInstant) {
        state.agentCapture?.flushed(at: at)
    }

    /// The agent's audio of this attempt so far, handed to the call's recording when the attempt
    /// ends (nil when the attempt does not capture); the attempt keeps capturing afresh.
    mutating func takeAgentCapture() -> AgentAudioCapture? {
        guard let capture = state.agentCapture else { return nil }
        state.agentCapture = AgentAudioCapture(maxCapturedBytes: capture.maxCapturedBytes)
        return capture
    }
}
