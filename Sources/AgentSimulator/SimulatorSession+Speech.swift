import VoiceLoad
import WSCore

/// The user's speech: what the agent's VAD hears, the user's transcripts, and (speech-to-text)
/// the results that answer an utterance.
extension SimulatorSession {
    mutating func speech(_ event: StreamingSpeechDetector.Event, now: MonotonicInstant) -> [Action] {
        if manualTurns { return manualTurnSpeech(event) }
        switch event {
        case .speechStarted(_, let audioMs):
            guard speaks else {
                if endOfTurnWithdrawable, reply?.stage == .thinking {
                    // An eager end of turn went out and the final one is still due: the user
                    // goes on, so the turn does too, from where it started.
                    statistics.turnsResumed += 1
                    return cancelReply() + [
                        .send(.userTurnResumed(audioMs: audioMs)),
                        .schedule(.interimResult, at: now.advanced(byMilliseconds: Self.interimIntervalMs)),
                    ]
                }
                statistics.userTurns += 1
                utteranceStartMs = audioMs
                return [
                    .send(.userSpeechStarted(audioMs: audioMs)),
                    .schedule(.interimResult, at: now.advanced(byMilliseconds: Self.interimIntervalMs)),
                ]
            }
            statistics.userTurns += 1
            return userSpeechStarted(audioMs: audioMs, at: now)
        case .speechEnded(let endedAt, let audioMs):
            // Speech over the agent too short to barge in (a backchannel): as if unheard.
            if speechOverAgentAudioMs != nil {
                speechOverAgentAudioMs = nil
                return []
            }
            // The user stopped before the agent reacted to their barge-in: it reacts now.
            var actions: [Action] = pendingBargeIn == nil ? [] : [.cancel(.bargeIn)] + deliverBargeIn(at: now)
            actions += speaks ? cancelUserPartialTranscript() : [.cancel(.interimResult)]
            actions.append(.send(.userSpeechStopped(audioMs: audioMs)))
            if speaks, configuration.userTranscripts {
                actions.append(.send(.transcript(TranscriptLine(role: "user", text: Self.transcriptText, isFinal: true))))
            }
            utteranceEndMs = audioMs
            return actions + scheduleReply(speechEndedAt: endedAt, now: now)
        }
    }

    /// A reply to speech that ended at `speechEndedAt`, due the drawn latency later (and, with
    /// `notBefore`, not before it); a reply to an earlier utterance still waiting gives way to
    /// it. The timer fires at once when the due moment has passed: the lateness is measured.
    private mutating func scheduleReply(
        speechEndedAt: MonotonicInstant,
        notBefore: MonotonicInstant? = nil,
        now: MonotonicInstant
    ) -> [Action] {
        let actions = cancelReply()
        let latencyUs = stretchedUs(configuration.replyLatency.sampleUs(using: &random))
        var dueAt = speechEndedAt.advanced(byMicroseconds: latencyUs)
        if let notBefore { dueAt = max(dueAt, notBefore) }
        reply = PendingReply(stage: .thinking, latencyMs: Int(latencyUs / 1_000), speechEndedAt: speechEndedAt, dueAt: dueAt)
        return actions + [.schedule(.reply, at: max(now, dueAt))]
    }

    /// Manual turns: no VAD events go out and nothing is answered until the client commits;
    /// the end of the speech is kept for the reply's timing.
    private mutating func manualTurnSpeech(_ event: StreamingSpeechDetector.Event) -> [Action] {
        switch event {
        case .speechStarted:
            statistics.userTurns += 1
            speechUnderWayCommitted = false
        case .speechEnded(let endedAt, _):
            if !speechUnderWayCommitted { uncommittedSpeechEndedAt = endedAt }
            speechUnderWayCommitted = false
        }
        return []
    }

    /// Manual turns: the client committed its utterance (and asks for a response). The reply
    /// is due the drawn latency after the end of the speech the agent heard, as with server
    /// VAD, but never before the commit. A commit that comes before the VAD's silence window
    /// has ended the speech takes the end of the voiced audio so far; one with no speech
    /// since the last is answered from the commit.
    mutating func replyToCommit(at now: MonotonicInstant) -> [Action] {
        var endedAt = uncommittedSpeechEndedAt ?? now
        if let voicedEnd = detector.voicedEndSoFar {
            endedAt = voicedEnd
            speechUnderWayCommitted = true
        }
        uncommittedSpeechEndedAt = nil
        return scheduleReply(speechEndedAt: endedAt, notBefore: now, now: now)
    }

    /// The user starts talking to an agent that speaks: a barge-in when the agent is speaking or
    /// about to, unless barge-in is off, in which case the agent goes on as if it heard nothing;
    /// otherwise the VAD event goes out at once. The partial transcript follows either way.
    private mutating func userSpeechStarted(audioMs: Int, at now: MonotonicInstant) -> [Action] {
        var actions: [Action]
        if configuration.bargeIn, stream != nil || reply != nil {
            guard configuration.bargeInMinSpeechMs == 0 else {
                speechOverAgentAudioMs = audioMs
                return bargeInOnceLongEnough(at: now)
            }
            actions = requestInterruption(userSpeechAudioMs: audioMs, at: now)
        } else if stream != nil {
            actions = []
        } else {
            actions = [.send(.userSpeechStarted(audioMs: audioMs))]
        }
        return actions + scheduleUserTranscript(at: now)
    }

    /// Speech over the agent barges in once it has lasted `bargeInMinSpeechMs` (the voiced
    /// audio heard so far, from its start); until then the agent speaks on.
    mutating func bargeInOnceLongEnough(at now: MonotonicInstant) -> [Action] {
        guard let startMs = speechOverAgentAudioMs, let endMs = detector.voicedEndAudioMs,
            endMs - startMs >= configuration.bargeInMinSpeechMs
        else { return [] }
        speechOverAgentAudioMs = nil
        // The agent finished on its own meanwhile: the speech is a turn of its own.
        guard stream != nil || reply != nil else { return [.send(.userSpeechStarted(audioMs: startMs))] + scheduleUserTranscript(at: now) }
        return requestInterruption(userSpeechAudioMs: startMs, at: now) + scheduleUserTranscript(at: now)
    }

    /// The user's partial transcript, due after the VAD event (which may wait for the agent's reaction).
    private mutating func scheduleUserTranscript(at now: MonotonicInstant) -> [Action] {
        guard configuration.userTranscripts else { return [] }
        // The partial transcript comes after the VAD event, which may wait for the agent's reaction.
        let reactionMs = pendingBargeIn == nil ? 0 : Int64(configuration.bargeInReactionMs)
        userTranscriptScheduled = true
        return [.schedule(.userTranscript, at: now.advanced(byMilliseconds: reactionMs + Self.userPartialDelayMs))]
    }

    /// The user's partial transcript while they speak.
    mutating func userPartialTranscript() -> [Action] {
        guard phase == .live, userTranscriptScheduled else { return [] }
        userTranscriptScheduled = false
        return [.send(.transcript(TranscriptLine(role: "user", text: Self.partialTranscriptText, isFinal: false)))]
    }

    private mutating func cancelUserPartialTranscript() -> [Action] {
        guard userTranscriptScheduled else { return [] }
        userTranscriptScheduled = false
        return [.cancel(.userTranscript)]
    }

    /// Speech-to-text: the next interim result while the user speaks.
    mutating func interimResult(at now: MonotonicInstant) -> [Action] {
        guard phase == .live, detector.isInSpeech else { return [] }
        return [
            .send(.speechResult(transcript(endMs: detector.audioPositionMs, isFinal: false))),
            .schedule(.interimResult, at: now.advanced(byMilliseconds: Self.interimIntervalMs)),
        ]
    }

    /// Speech-to-text: a result covering the utterance from its start to `endMs`.
    private func transcript(endMs: Int, isFinal: Bool) -> SpeechResult {
        SpeechResult(
            text: Self.transcriptText,
            isFinal: isFinal,
            speechFinal: isFinal,
            startS: Double(utteranceStartMs) / 1_000,
            durationS: Double(max(0, endMs - utteranceStartMs)) / 1_000
        )
    }

    /// Speech-to-text: the client's finalize request flushes what has been heard of the
    /// utterance as a final result (`from_finalize`).
    func finalizedTranscript() -> SpeechResult {
        var result = transcript(endMs: detector.audioPositionMs, isFinal: true)
        result.speechFinal = false
        result.fromFinalize = true
        return result
    }

    /// Speech-to-text: the final, endpointed result of the utterance and its end.
    func finalTranscript() -> [Action] {
        [
            .send(.speechResult(transcript(endMs: utteranceEndMs, isFinal: true))),
            .send(.utteranceEnd(lastWordEndS: Double(utteranceEndMs) / 1_000)),
        ]
    }
}
