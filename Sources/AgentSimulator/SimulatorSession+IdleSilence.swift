import VoiceLoad
import WSCore

/// The silence an agent's WebRTC track streams while the agent is not speaking
/// (`streamsSilenceWhileIdle`; docs/webrtc.md, "What the simulator sends while quiet"). A Pipecat
/// bot's output track sends a frame every 20 ms all call long, silence when it has nothing to
/// play, so its caller receives and decodes 50 packets a second even between turns. From the
/// moment media flows, a frame of silence goes every 20 ms whenever no turn is being spoken, on
/// the one timer that paces the turns' chunks (`Timer.nextChunk`): a turn takes the timer over
/// when it starts (its first chunk leaves when its latency is up, wherever that falls between
/// two frames of silence), and gives it back when it ends or is cut, the silence resuming where
/// the turn's next chunk would have gone.
extension SimulatorSession {
    /// One frame of silence: an Opus frame, as a WebRTC track's.
    static let idleSilenceFrameMs = Int64(OpusClip.frameMs)

    /// The transport connected: media flows from now until the call ends. An agent that streams
    /// silence while idle sends its first frame now, unless a turn is already being spoken.
    mutating func mediaStarted(at now: MonotonicInstant) -> [Action] {
        guard streamsSilenceWhileIdle, !mediaFlowing else { return [] }
        mediaFlowing = true
        guard stream == nil else { return [] }
        return sendIdleSilence(dueAt: now, at: now)
    }

    /// The pacing timer fired with no turn being spoken: the frame of silence due, if media flows.
    mutating func idleSilenceDue(at now: MonotonicInstant) -> [Action] {
        guard mediaFlowing, stream == nil, let due = idleSilenceDueAt else { return [] }
        return sendIdleSilence(dueAt: due, at: now)
    }

    /// The turn `ended` has ended or been cut: the silence resumes where its next chunk would
    /// have gone (or a frame from now, when that is past: a turn sent all at once).
    mutating func idleSilenceResumes(after ended: Stream, at now: MonotonicInstant) -> [Action] {
        let nextChunkDue = dueTime(of: ended.nextChunk, in: ended)
        let due = nextChunkDue > now ? nextChunkDue : now.advanced(byMilliseconds: Self.idleSilenceFrameMs)
        idleSilenceDueAt = due
        return [.schedule(.nextChunk, at: due)]
    }

    /// The frame of silence due at `due`, sent `now`, and the next one a frame after it. A timer
    /// that fired a whole frame late or more skips the frames it missed rather than sending them
    /// in a burst: a late loop is already the busiest moment to send more.
    private mutating func sendIdleSilence(dueAt due: MonotonicInstant, at now: MonotonicInstant) -> [Action] {
        var next = due.advanced(byMilliseconds: Self.idleSilenceFrameMs)
        if next <= now { next = now.advanced(byMilliseconds: Self.idleSilenceFrameMs) }
        idleSilenceDueAt = next
        return [.sendIdleSilence, .schedule(.nextChunk, at: next)]
    }
}
