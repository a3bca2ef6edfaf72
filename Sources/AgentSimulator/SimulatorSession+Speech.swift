import VoiceLoad

/// The user's speech: what the agent's VAD hears, the user's transcripts, and (speech-to-text)
/// the results that answer an utterance.
extension SimulatorSession {
    mutating func speech(_ event: StreamingSpeechDetector.Event, now: MonotonicInstant) -> [Action] {
        switch event {
        case .speechStarted(_, let audioMs):
            statistics.userTurns += 1
            guard speaks else {
                utteranceStartMs = audioMs
                return [
                    .send(.userSpeechStarted(audioMs: audioMs)),
                    .schedule(.interimResult, at: now.advanced(byMilliseconds: Self.interimIntervalMs)),
                ]
            }
            return userSpeechStarted(audioMs: audioMs, at: now)
        case .speechEnded(let endedAt, let audioMs):
            // The user stopped before the agent reacted to their barge-in: it reacts now.
            var actions: [Action] = pendingBargeIn == nil ? [] : [.cancel(.bargeIn)] + deliverBargeIn()
            actions += speaks ? cancelUserPartialTranscript() : [.cancel(.interimResult)]
            actions.append(.send(.userSpeechStopped(audioMs: audioMs)))
            if speaks, configuration.userTranscripts {
                actions.append(.send(.transcript(TranscriptLine(role: "user", text: Self.transcriptText, isFinal: true))))
            }
            utteranceEndMs = audioMs
            // A reply to an earlier utterance still waiting (barge-in ignored) gives way to this one.
            actions += cancelReply()
            let latencyUs = stretchedUs(configuration.replyLatency.sampleUs(using: &random))
            let dueAt = endedAt.advanced(byMicroseconds: latencyUs)
            reply = PendingReply(stage: .thinking, latencyMs: Int(latencyUs / 1_000), speechEndedAt: endedAt, dueAt: dueAt)
            actions.append(.schedule(.reply, at: max(now, dueAt)))
            return actions
        }
    }

    /// The user starts talking to an agent that speaks: a barge-in when the agent is speaking or
    /// about to, unless barge-in is off, in which case the agent goes on as if it heard nothing;
    /// otherwise the VAD event goes out at once. The partial transcript follows either way.
    private mutating func userSpeechStarted(audioMs: Int, at now: MonotonicInstant) -> [Action] {
        var actions: [Action]
        if configuration.bargeIn, stream != nil || reply != nil {
            actions = requestInterruption(userSpeechAudioMs: audioMs, at: now)
        } else if stream != nil {
            actions = []
        } else {
            actions = [.send(.userSpeechStarted(audioMs: audioMs))]
        }
        guard configuration.userTranscripts else { return actions }
        // The partial transcript comes after the VAD event, which may wait for the agent's reaction.
        let reactionMs = pendingBargeIn == nil ? 0 : Int64(configuration.bargeInReactionMs)
        userTranscriptScheduled = true
        return actions + [.schedule(.userTranscript, at: now.advanced(byMilliseconds: reactionMs + Self.userPartialDelayMs))]
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
            text: Self.transcriptText, isFinal: isFinal, speechFinal: isFinal,
            startS: Double(utteranceStartMs) / 1_000, durationS: Double(max(0, endMs - utteranceStartMs)) / 1_000
        )
    }

    /// Speech-to-text: the final, endpointed result of the utterance and its end.
    func finalTranscript() -> [Action] {
        [
            .send(.speechResult(transcript(endMs: utteranceEndMs, isFinal: true))),
            .send(.utteranceEnd(lastWordEndS: Double(utteranceEndMs) / 1_000)),
        ]
    }
}
