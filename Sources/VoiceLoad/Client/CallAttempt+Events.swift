import WSCore

/// What the server says, event by event: the turn tracker measures, the attempt's state
/// follows, and the waiting step is checked once the frame's events are all applied.
extension CallAttempt {
    /// `frameArrived`'s second half: `decoded` is what the dialect's codec made of `frame`,
    /// which came off the socket at `at`; handled at `now`. Tests feed decoded frames here.
    ///
    /// Frames go out in the order they are built, so that a dialect that numbers its messages
    /// numbers them in wire order: the immediate replies the codec built while decoding go
    /// first, then what the events send, then the replies timed by playback or delay, which
    /// are built (`CodecReply.Content.intent`) when they are sent.
    mutating func receive(_ frame: WireFrame, decoded: DecodedFrame, at: MonotonicInstant, now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        for reply in decoded.replies where reply.timing == .immediately {
            actions += send(reply.content)
        }
        for event in decoded.events {
            if case .event(let match)? = state.wait?.condition, match.matches(event) { state.awaitedEventArrived = true }
            if case .malformed(let reason) = event {
                actions.append(.recordError(.malformedFrame, .frame(frame, reason: reason), at: at))
            }
            if case .unknown(let type) = event { actions.append(.record(.unknownEvent(type: type, frame: frame))) }
            actions += apply(event, at: at)
        }
        for reply in decoded.replies where reply.timing != .immediately {
            let dueAt = reply.timing.dueAt(receivedAt: at, playbackDrainsAt: state.tracker.playback.drainsAt)
            switch (reply.timing, dueAt) {
            case (.whenPlayedOut, let dueAt?): state.repliesWhenPlayedOut.append(DueReply(content: reply.content, dueAt: dueAt))
            case (.afterMs, let dueAt?): actions += scheduleDelayedReply(reply.content, at: dueAt)
            default: actions += send(reply.content)
            }
        }
        if !state.repliesWhenPlayedOut.isEmpty { actions += sendRepliesPlayedOut(at: now) }
        checkWait(at: now).append(to: &actions)
        return actions
    }

    /// The attempt is ready (its event, or the open on dialects that start with it).
    mutating func markReady(at: MonotonicInstant) -> [Action] {
        guard readyAt == nil else { return [] }
        state.tracker.sessionReady(at: at)
        return [.ready(at: at)]
    }

    /// Playback stops at `at`, with what the caller heard of the agent's turn: tells the server
    /// (OpenAI `conversation.item.truncate`; nothing on other dialects). Only while audible.
    mutating func truncatePlayback(at: MonotonicInstant) -> [Action] {
        guard state.tracker.isAgentAudible(at: at) else { return [] }
        let heardMs = Int(state.tracker.playback.heardUs(at: at) / 1_000)
        return send(.playbackTruncated(audioEndMs: heardMs))
    }

    private mutating func apply(_ event: NormalizedEvent, at: MonotonicInstant) -> [Action] {
        switch event {
        case .sessionStarted:
            if state.sessionStartedAt == nil, openedAt != nil { state.sessionStartedAt = at }
            return []
        case .sessionReady:
            return markReady(at: at)
        case .agentAudio(let chunk):
            if state.agentCapture == nil {
                state.tracker.agentAudio(chunk, at: at)
            } else {
                captureAgentAudio(chunk, at: at)
            }
            return scheduleQuietCheck()
        case .agentSpeechEnded(let turnKey), .turnComplete(let turnKey):
            guard turnEndSignal.endsByEvent else { return [] }
            return emit(state.tracker.agentTurnEnded(turnKey: turnKey, at: at)) + silentReplies()
        case .agentInterrupted:
            captureFlush(at: at)
            return truncatePlayback(at: at) + emit(state.tracker.bargeInSignal(.interrupted, at: at)) + flushRepliesPlayedOut()
        case .userSpeechStarted:
            guard state.tracker.isAgentAudible(at: at) else { return [] }  // a normal turn starts
            captureFlush(at: at)
            return truncatePlayback(at: at) + emit(state.tracker.bargeInSignal(.userSpeechStarted, at: at)) + flushRepliesPlayedOut()
        case .responseCancelled:
            captureFlush(at: at)
            return emit(state.tracker.bargeInSignal(.responseCancelled, at: at))
        case .cancelNotActive:
            // The answer to vload's own cancel, too late to cancel anything: a late cancel.
            // Without a command of vload's waiting for it, the server's error it is.
            guard !state.tracker.commandFoundNothingToCancel(at: at) else { return [] }
            let code = OpenAIRealtimeEventName.cancelNotActiveCode
            return [.recordError(.inBandError(code: code), .inBand(code: code, message: ""), at: at)]
        case .toolCall(let name, let status, let id, _):
            switch status {
            case "cancelled":
                // Withdrawn by the server: no result may be sent for it.
                state.pendingToolCalls.removeAll { $0.id != nil && $0.id == id }
                return []
            case "called":
                return [.record(.toolCall)]  // run by the server itself: nothing to answer
            default:
                state.pendingToolCalls.append(ToolCall(name: name, id: id))
                return [.record(.toolCall)]
            }
        case .warning(let code, _):
            return [.record(.warning(code: code))]
        case .error(let code, let message, let fatal):
            if readyAt == nil, readySignal == .event {
                // An error before the session got ready is a rejection (`ready_rejected`,
                // docs/reports.md): the attempt cannot go on.
                return fail(SessionFailure(.readyRejected, .inBand(code: code, message: message)))
            } else if fatal {
                return fail(SessionFailure(.inBandError(code: code), .inBand(code: code, message: message)))
            }
            return [.recordError(.inBandError(code: code), .inBand(code: code, message: message), at: at)]
        case .sessionEnded:
            if state.sessionEndedAt == nil { state.sessionEndedAt = at }
            return []
        case .unknown, .malformed:
            return []  // counted by receive(_:decoded:at:now:), which has the frame
        case .transcript(let role, let text, let isFinal):
            if role == "user" { state.tracker.userTranscript(text: text, isFinal: isFinal, at: at) }
            return []
        case .speechResult(let result):
            if result.fromFinalize, state.finalizeSentAt != nil, state.finalizedAt == nil { state.finalizedAt = at }
            let actions = positionLatency(of: result, at: at)
            // The result is the user's transcript too; take it before the endpoint closes the turn.
            state.tracker.userTranscript(text: result.text, isFinal: result.isFinal, at: at)
            return result.speechFinal ? actions + emit(state.tracker.endpointReached(at: at)) : actions
        case .utteranceEnd:
            return emit(state.tracker.endpointReached(at: at))
        case .userTurn(let signal):
            return emit(state.tracker.userTurnSignal(signal, at: at))
        case .serverLatency(let name, let valueUs):
            guard let metric = MetricName(rawValue: name), state.tracker.serverLatency(metric) else { return [] }
            return [.record(.metric(metric, microseconds: valueUs))]
        case .agentSpeechStarted, .userSpeechStopped, .mark:
            return []
        }
    }

    /// Speech-to-text position latency (docs/dialects.md): arrival minus the moment the end of
    /// the result's audio was spoken, `T_mic_open + (start + duration)`. That is the acoustic
    /// end of speech (docs/metrics.md, "The audio clock"), up to one frame before the frame
    /// carrying it was sent, so a result can never precede its audio. A result placed past the
    /// audio sent so far is a server error.
    private func positionLatency(of result: SpeechResult, at: MonotonicInstant) -> [Action] {
        guard let streamOpenedAt = state.streamOpenedAt, !result.text.isEmpty else { return [] }
        let audioEnd = streamOpenedAt.advanced(byMicroseconds: Int64(((result.startS + result.durationS) * 1_000_000).rounded()))
        let latencyUs = at.microseconds(since: audioEnd)
        guard latencyUs >= 0 else {
            let sentS = String((at.milliseconds(since: streamOpenedAt) / 10).rounded() / 100)
            let endS = String(((result.startS + result.durationS) * 100).rounded() / 100)
            return [
                .recordError(.resultBeforeAudio, .text("a result ends at \(endS) s of the audio stream, only \(sentS) s was sent"), at: at)
            ]
        }
        return [.record(.metric(result.isFinal ? .sttFinalLatencyMs : .sttInterimLatencyMs, microseconds: latencyUs))]
    }

    /// Hands a finished turn's row to the recorder, numbered on across the call's attempts.
    func emit(_ record: TurnRecord?) -> [Action] {
        guard var record else { return [] }
        record.turn += attempts.utterancesBefore
        return [.emit(record)]
    }

    func emit(_ records: [TurnRecord]) -> [Action] {
        records.flatMap { emit($0) }
    }

    /// Counts the agent turns that just ended with audio none of which was voiced (`silent_reply`).
    mutating func silentReplies() -> [Action] {
        state.tracker.takeSilentReplies().map { Action.recordError(.silentReply, .text($0.description), at: $0.endedAt) }
    }
}
