import NIOCore

extension VirtualClient {
    /// Everything the connection reports, on this client's loop, as it happens.
    func handle(_ event: WebSocketConnectionEvent) {
        switch event {
        case .frame(let timestamped):
            guard openedAt != nil else {
                framesBeforeOpen.append(timestamped)
                return
            }
            let decoded = codec.receive(timestamped.frame)
            for normalized in decoded.events {
                if case .event(let match)? = pendingWait?.condition, match.matches(normalized) { awaitedEventArrived = true }
                if case .malformed(let reason) = normalized {
                    record(.malformedFrame, .frame(timestamped.frame, reason: reason), at: timestamped.receivedAt)
                }
                if case .unknown(let type) = normalized {
                    recorder.recordUnknownEvent(type: type, example: plan.redactor.unknownEventExample(timestamped.frame))
                }
                apply(normalized, at: timestamped.receivedAt)
            }
            for reply in decoded.replies {
                let dueAt = reply.timing.dueAt(receivedAt: timestamped.receivedAt, playbackDrainsAt: tracker.playback.drainsAt)
                switch (reply.timing, dueAt) {
                case (.whenPlayedOut, let dueAt?): repliesWhenPlayedOut.append((reply.frame, dueAt))
                case (.afterMs, let dueAt?): scheduleDelayedReply(reply.frame, at: dueAt)
                default: connection?.send(EncodedFrame(reply.frame))
                }
            }
            if !repliesWhenPlayedOut.isEmpty { sendRepliesPlayedOut() }
        case .closed(let code, let reason, let at):
            connection = nil
            if sessionEndedAt == nil { sessionEndedAt = at }
            if !hangingUp { fail(SessionFailure(.closedByServer(code: code), .close(code: code, reason: reason))) }
        case .failed(let failure, let at):
            connection = nil
            if sessionEndedAt == nil { sessionEndedAt = at }
            if !hangingUp { fail(SessionFailure(Self.errorClass(of: failure), .text(failure.message))) }
        }
        checkPendingWait()
    }

    /// Playback stops now, with what the caller heard of the agent's turn: tells the server
    /// (OpenAI `conversation.item.truncate`; nothing on other dialects). Only while audible.
    func truncatePlayback(at: MonotonicInstant) {
        guard tracker.isAgentAudible(at: at) else { return }
        let heardMs = Int(tracker.playback.heardUs(at: at) / 1_000)
        for frame in codec.frames(for: .playbackTruncated(audioEndMs: heardMs)) { connection?.send(EncodedFrame(frame)) }
    }

    private func apply(_ event: NormalizedEvent, at: MonotonicInstant) {
        switch event {
        case .sessionStarted:
            if session.startedMs == nil, let openedAt { session.startedMs = at.milliseconds(since: openedAt) }
        case .sessionReady:
            markReady(at: at)
        case .agentAudio(let chunk):
            tracker.agentAudio(chunk, at: at)
            scheduleQuietCheck()
        case .agentSpeechEnded(let turnKey), .turnComplete(let turnKey):
            if plan.dialect.turnEndSignal == .event {
                emit(tracker.agentTurnEnded(turnKey: turnKey, at: at))
                recordSilentReplies()
            }
        case .agentInterrupted:
            truncatePlayback(at: at)
            emit(tracker.interruptionSignal(.interrupted, at: at))
            sendRepliesPlayedOut(flushed: true)
        case .userSpeechStarted:
            guard tracker.isAgentAudible(at: at) else { break }  // a normal turn starts
            truncatePlayback(at: at)
            emit(tracker.interruptionSignal(.userSpeechStarted, at: at))
            sendRepliesPlayedOut(flushed: true)
        case .responseCancelled:
            emit(tracker.interruptionSignal(.responseCancelled, at: at))
        case .cancelNotActive:
            // The answer to vload's own cancel, too late to cancel anything: a late cancel.
            // Without a command of vload's waiting for it, the server's error it is.
            if !tracker.commandFoundNothingToCancel(at: at) {
                let code = OpenAIRealtimeEventName.cancelNotActiveCode
                record(.inBandError(code: code), .inBand(code: code, message: ""), at: at)
            }
        case .toolCall(let name, let status, let id, _):
            switch status {
            case "cancelled":
                // Withdrawn by the server: no result may be sent for it.
                pendingToolCalls.removeAll { $0.id != nil && $0.id == id }
            case "called":
                recorder.recordToolCall()  // run by the server itself: nothing to answer
            default:
                recorder.recordToolCall()
                pendingToolCalls.append((name: name, id: id))
            }
        case .warning(let code, _):
            recorder.recordWarning(code: code)
        case .error(let code, let message, let fatal):
            if readyAt == nil, plan.dialect.readySignal == .event {
                // The session never became ready (ruling 9).
                fail(SessionFailure(.readyRejected, .inBand(code: code, message: message)))
            } else if fatal {
                fail(SessionFailure(.inBandError(code: code), .inBand(code: code, message: message)))
            } else {
                record(.inBandError(code: code), .inBand(code: code, message: message), at: at)
            }
        case .sessionEnded:
            if sessionEndedAt == nil { sessionEndedAt = at }
        case .unknown, .malformed:
            break  // counted by handle(_:), which has the frame
        case .transcript(let role, let text, let isFinal):
            if role == "user" { tracker.userTranscript(text: text, isFinal: isFinal, at: at) }
        case .speechResult(let result):
            if result.fromFinalize, finalizeSentAt != nil, finalizedAt == nil { finalizedAt = at }
            recordPositionLatency(of: result, at: at)
            // The result is the user's transcript too; take it before the endpoint closes the turn.
            tracker.userTranscript(text: result.text, isFinal: result.isFinal, at: at)
            if result.speechFinal { emit(tracker.endpointReached(at: at)) }
        case .utteranceEnd:
            emit(tracker.endpointReached(at: at))
        case .serverLatency(let name, let valueMs):
            if let metric = MetricName(rawValue: name), tracker.serverLatency(metric) {
                recorder.record(metric, microseconds: Int64((valueMs * 1_000).rounded()))
            }
        case .agentSpeechStarted, .userSpeechStopped, .mark:
            break
        }
    }

    /// Speech-to-text position latency (docs/dialects.md): arrival minus the moment the end of
    /// the result's audio was spoken, `T_mic_open + (start + duration)` — the acoustic instant
    /// (docs/metrics.md), up to one frame before the frame that carries it is sent, so a result can never
    /// precede its audio. A result placed past the audio sent so far is a server error.
    private func recordPositionLatency(of result: SpeechResult, at: MonotonicInstant) {
        guard let streamOpenedAt, !result.text.isEmpty else { return }
        let audioEnd = streamOpenedAt.advanced(byMicroseconds: Int64(((result.startS + result.durationS) * 1_000_000).rounded()))
        let latencyUs = at.microseconds(since: audioEnd)
        guard latencyUs >= 0 else {
            let sentS = String((at.milliseconds(since: streamOpenedAt) / 10).rounded() / 100)
            let endS = String(((result.startS + result.durationS) * 100).rounded() / 100)
            record(.resultBeforeAudio, .text("a result ends at \(endS) s of the audio stream, only \(sentS) s was sent"), at: at)
            return
        }
        recorder.record(result.isFinal ? .sttFinalLatencyMs : .sttInterimLatencyMs, microseconds: latencyUs)
    }

    func markReady(at: MonotonicInstant) {
        guard readyAt == nil else { return }
        readyAt = at
        sessionGotReady = true
        recorder.recordReady(attemptStartedAt: restStartedAt ?? connectStartedAt ?? at, at: at)
        tracker.sessionReady(at: at)
    }

    /// Hands a finished turn to the recorder.
    func emit(_ record: TurnRecord?) {
        guard var record else { return }
        record.turn += turnsBeforeAttempt  // numbered on across reconnects
        session.turns += 1
        recorder.recordTurn(record)
    }

    func emit(_ records: [TurnRecord]) {
        for record in records { emit(record) }
    }

    /// The session cannot go on: remember why (the first reason) and wake the step waiting on it.
    func fail(_ failure: SessionFailure) {
        if self.failure == nil { self.failure = failure }
        stopMicrophone()
        abortPendingWait(throwing: self.failure ?? failure)
    }

    /// Counts an error of this session. Its detail is built, through the plan's redactor, only
    /// when the recorder keeps it as an example. Returns the class name it was counted under.
    @discardableResult
    func record(_ errorClass: ErrorClass, _ evidence: @autoclosure () -> ErrorEvidence, at instant: MonotonicInstant = .now()) -> String {
        recorder.recordError(errorClass, at: instant, client: clientIndex, iteration: iteration, detail: plan.redactor.detail(evidence()))
    }

    /// Counts the agent turns that just ended with audio none of which was voiced (`silent_reply`).
    func recordSilentReplies() {
        for reply in tracker.takeSilentReplies() {
            record(.silentReply, .text(reply.description), at: reply.endedAt)
        }
    }

    /// The class a failed connection is counted as.
    static func errorClass(of failure: WebSocketFailure) -> ErrorClass {
        switch failure.kind {
        case .frameTooLarge: return .frameTooLarge
        case .protocolViolation: return .malformedFrame
        case .io: return .connectionLost
        }
    }

    // MARK: Timers

    /// Sends the replies whose audio has played (all of them when playback was flushed) and
    /// sets a timer for the next.
    func sendRepliesPlayedOut(flushed: Bool = false) {
        replyTimer?.cancel()
        replyTimer = nil
        let now = MonotonicInstant.now()
        while let first = repliesWhenPlayedOut.first, flushed || first.dueAt <= now {
            repliesWhenPlayedOut.removeFirst()
            connection?.send(EncodedFrame(first.frame))
        }
        guard let next = repliesWhenPlayedOut.first else { return }
        replyTimer = eventLoop.scheduleTask(deadline: next.dueAt.deadline) { [self] in
            self.assumeIsolated { $0.sendRepliesPlayedOut() }
        }
    }

    /// Sends `frame` at `dueAt` (a reply timed `after_ms`), unless the session ends first.
    private func scheduleDelayedReply(_ frame: WireFrame, at dueAt: MonotonicInstant) {
        let key = nextDelayedReplyKey
        nextDelayedReplyKey += 1
        delayedReplies[key] = eventLoop.scheduleTask(deadline: dueAt.deadline) { [self] in
            self.assumeIsolated { client in
                guard client.delayedReplies.removeValue(forKey: key) != nil else { return }
                client.connection?.send(EncodedFrame(frame))
            }
        }
    }

    /// Cancels the replies timed `after_ms` that are not yet sent.
    func cancelDelayedReplies() {
        for scheduled in delayedReplies.values { scheduled.cancel() }
        delayedReplies = [:]
    }

    /// On dialects without an end-of-turn event, looks for the quiet gap that ends a turn.
    func scheduleQuietCheck() {
        guard quietTimer == nil, let due = tracker.nextQuietCheck else { return }
        quietTimer = eventLoop.scheduleTask(deadline: due.deadline) { [self] in
            self.assumeIsolated { $0.quietCheckDue() }
        }
    }

    private func quietCheckDue() {
        quietTimer = nil
        let result = tracker.checkQuiet(at: .now())
        if result.ended {
            emit(result.record)
            recordSilentReplies()
            checkPendingWait()
        } else {
            scheduleQuietCheck()
        }
    }
}
