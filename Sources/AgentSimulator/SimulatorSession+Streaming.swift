import VoiceLoad
import WSCore

/// The agent's audio: a clip streamed chunk by chunk at `replySpeed`, or the pace a fault sets.
extension SimulatorSession {
    /// Starts a turn of `clip`; with `announcesEnd` false its end goes unannounced.
    mutating func startSpeaking(
        _ clip: Clip,
        at now: MonotonicInstant,
        latencyMs: Int,
        announcesEnd: Bool = true,
        pace: Pace? = nil
    ) -> [Action] {
        turnsStarted += 1
        let turnKey = "resp_\(sessionID)_\(turnsStarted)"
        stream = Stream(
            clip: clip,
            startedAt: now,
            nextChunk: 0,
            turnKey: turnKey,
            announcesEnd: announcesEnd,
            pace: pace ?? Pace(speed: configuration.replySpeed)
        )
        return [.send(.agentTurnStarted(turnKey: turnKey, latencyMs: latencyMs))] + sendDueChunks(at: now)
    }

    /// The turn being spoken stops; an agent that streams silence while idle goes on with it.
    mutating func stopSpeaking(at now: MonotonicInstant) -> [Action] {
        guard let stopped = stream else { return [] }
        stream = nil
        return mediaFlowing ? idleSilenceResumes(after: stopped, at: now) : [.cancel(.nextChunk)]
    }

    /// Chunk i of a clip is due at `startedAt + i·chunk/speed`, plus the pause of an `audio_gap`
    /// from its chunk on; speed 0 sends the whole clip (each side of a pause) at once. A reply
    /// queued behind the clip starts `queuedReplyPauseMs` after its end: a pause a client can
    /// tell turns apart by, even without end-of-turn events.
    mutating func sendDueChunks(at now: MonotonicInstant) -> [Action] {
        guard var stream, let count = chunkCounts[stream.clip] else { return [] }
        var actions: [Action] = []
        while stream.nextChunk < count, dueTime(of: stream.nextChunk, in: stream) <= now {
            actions.append(.sendChunk(stream.clip, index: stream.nextChunk))
            stream.nextChunk += 1
        }
        guard stream.nextChunk >= count else {
            self.stream = stream
            actions.append(.schedule(.nextChunk, at: dueTime(of: stream.nextChunk, in: stream)))
            return actions
        }
        self.stream = nil
        if mediaFlowing { actions += idleSilenceResumes(after: stream, at: now) }
        if stream.announcesEnd {
            actions += [.send(.agentAudioDone(turnKey: stream.turnKey)), .send(.turnComplete(turnKey: stream.turnKey))]
        }
        if reply?.stage == .queued {
            actions.append(.schedule(.queuedReply, at: now.advanced(byMilliseconds: Self.queuedReplyPauseMs)))
        }
        return actions
    }

    static let queuedReplyPauseMs: Int64 = 1_000

    func dueTime(of chunk: Int, in stream: Stream) -> MonotonicInstant {
        let pace = stream.pace
        let gapUs = pace.gapUs > 0 && chunk >= pace.gapBeforeChunk ? pace.gapUs : 0
        guard pace.speed > 0 else { return stream.startedAt.advanced(byMicroseconds: gapUs) }
        let offsetUs = Double(chunk * configuration.replyChunkMs * 1_000) / pace.speed
        return stream.startedAt.advanced(byMicroseconds: Int64(offsetUs) + gapUs)
    }
}
