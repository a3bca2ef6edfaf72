import NIOCore
import WSCore

/// Carries out what the caller (`CallerSession`) decides, on the client's loop: its named
/// timers (one scheduled task per name), frames to send, figures to record, the waiting
/// step's end.
extension VirtualClient {
    /// The session cannot go on: remember why (the first reason) and wake the step waiting on it.
    func fail(_ failure: SessionFailure) {
        perform(caller.fail(failure))
    }

    /// Carries out the caller's actions, in order.
    func perform(_ actions: [CallerSession.Action]) {
        for action in actions {
            switch action {
            case .schedule(let timer, let at):
                timers[timer]?.cancel()
                timers[timer] = eventLoop.scheduleTask(deadline: at.deadline) { [self] in
                    self.assumeIsolated { $0.timerFired(timer) }
                }
            case .cancel(let timer):
                timers.removeValue(forKey: timer)?.cancel()
            case .endStep(let end):
                guard let continuation = stepContinuation else { continue }
                stepContinuation = nil
                if let error = end.error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            case .stopMicrophone:
                pacingToken += 1  // the frame queued with the pacer is stale now
            case .send(let intent):
                for frame in codec.frames(for: intent) { connection?.send(EncodedFrame(frame)) }
            case .sendFrame(let frame):
                connection?.send(EncodedFrame(frame))
            case .handleFrame(let frame, let receivedAt):
                let decoded = codec.receive(frame)
                perform(caller.receive(frame, decoded: decoded, at: receivedAt, now: .now()))
            case .abandonConnect:
                pendingConnect?.fail(SessionWoundDown())
            case .emit(let turn):
                emit(turn)
            case .recordError(let errorClass, let evidence, let at):
                record(errorClass, evidence, at: at)
            case .record(let figure):
                record(figure)
            case .ready(let at):
                sessionGotReady = true
                recorder.recordReady(attemptStartedAt: restStartedAt ?? connectStartedAt ?? at, at: at)
            case .sessionStarted(let at):
                if session.startedMs == nil, let openedAt = caller.openedAt { session.startedMs = at.milliseconds(since: openedAt) }
            }
        }
    }

    private func timerFired(_ timer: CallerSession.Timer) {
        timers[timer] = nil
        perform(caller.timerFired(timer, at: .now()))
    }
}
