import NIOCore
import WSCore

extension VirtualClient {
    /// Everything the connection reports, on this client's loop, as it happens: each frame goes
    /// to the call attempt once, raw (`CallAttempt.frameArrived`, which decodes it), and so do
    /// the connection's close and failure.
    func handle(_ event: WebSocketConnectionEvent) {
        switch event {
        case .frame(let timestamped):
            perform(
                attempt.frameArrived(timestamped.frame, at: timestamped.receivedAt, mediaPayload: timestamped.mediaPayload, now: .now())
            )
        case .closed(let code, let reason, let at):
            connection = nil
            perform(
                attempt.connectionEnded(
                    SessionFailure.serverClosed(code: code, reason: reason),
                    at: at,
                    now: .now()
                )
            )
        case .failed(let failure, let at):
            connection = nil
            perform(attempt.connectionEnded(SessionFailure(Self.errorClass(of: failure), .text(failure.message)), at: at, now: .now()))
        }
    }

    /// Counts an error of this call. Its detail is built, through the plan's redactor, only
    /// when the recorder keeps it as an example. Returns the class name it was counted under.
    @discardableResult
    func record(_ errorClass: ErrorClass, _ evidence: @autoclosure () -> ErrorEvidence, at instant: MonotonicInstant = .now()) -> String {
        recorder.recordError(errorClass, at: instant, client: clientIndex, iteration: iteration, detail: plan.redactor.detail(evidence()))
    }

    /// Hands a figure of the attempt to the recorder.
    func record(_ figure: CallAttempt.Figure) {
        switch figure {
        case .metric(let metric, let microseconds): recorder.record(metric, microseconds: microseconds)
        case .toolCall: recorder.recordToolCall()
        case .warning(let code): recorder.recordWarning(code: code)
        case .unknownEvent(let type, let frame):
            recorder.recordUnknownEvent(type: type, example: plan.redactor.unknownEventExample(frame))
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
}
