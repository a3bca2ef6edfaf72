import NIOCore
import WSCore

/// Carries out what the call attempt (`CallAttempt`) decides, on the client's loop: its named
/// timers (one scheduled task per name), frames to send, figures to record, the waiting
/// step's end.
extension VirtualClient {
    /// The attempt cannot go on: remember why (the first reason) and wake the step waiting on it.
    func fail(_ failure: SessionFailure) {
        perform(attempt.fail(failure))
    }

    /// Carries out the attempt's actions, in order.
    @inline(never)
    func perform(_ actions: [CallAttempt.Action]) {
        for action in actions {
            switch action {
            case .schedule(let timer, let at):
                timers[timer]?.cancel()
                timers[timer] = eventLoop.scheduleTask(deadline: at.deadline) { [self] in
                    self.enter(.timer(timer))
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
                recording?.microphoneStopped(at: .now())
            case .sendFrame(let frame):
                connection?.send(EncodedFrame(frame))
            case .abandonConnect:
                abandonPendingConnect?()
            case .emit(let turn):
                session.turns += 1
                recorder.recordTurn(turn)
                recording?.turnEmitted(turn)
            case .recordError(let errorClass, let evidence, let at):
                record(errorClass, evidence, at: at)
            case .record(let figure):
                record(figure)
            case .ready(let at):
                sessionGotReady = true
                recording?.ready(at: at)
                recorder.recordReady(attemptStartedAt: attempt.startedAt ?? at, at: at)
            }
        }
    }

    func timerFired(_ timer: CallAttempt.Timer) {
        timers[timer] = nil
        perform(attempt.timerFired(timer, at: .now()))
    }
}
