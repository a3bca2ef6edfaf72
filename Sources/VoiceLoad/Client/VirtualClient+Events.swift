import NIOCore
import WSCore

extension VirtualClient {
    /// Everything the connection reports, on this client's loop, as it happens: decoded by the
    /// dialect's codec and handed to the caller (`CallerSession+Events`).
    func handle(_ event: WebSocketConnectionEvent) {
        switch event {
        case .frame(let timestamped):
            perform(caller.frameArrived(timestamped.frame, at: timestamped.receivedAt))
        case .closed(let code, let reason, let at):
            connection = nil
            perform(
                caller.connectionEnded(SessionFailure(.closedByServer(code: code), .close(code: code, reason: reason)), at: at, now: .now())
            )
        case .failed(let failure, let at):
            connection = nil
            perform(caller.connectionEnded(SessionFailure(Self.errorClass(of: failure), .text(failure.message)), at: at, now: .now()))
        }
    }

    /// Hands a finished turn to the recorder.
    func emit(_ record: TurnRecord?) {
        guard var record else { return }
        record.turn += caller.attempts.turnsBefore  // numbered on across reconnects
        session.turns += 1
        recorder.recordTurn(record)
    }

    func emit(_ records: [TurnRecord]) {
        for record in records { emit(record) }
    }

    /// Counts an error of this session. Its detail is built, through the plan's redactor, only
    /// when the recorder keeps it as an example. Returns the class name it was counted under.
    @discardableResult
    func record(_ errorClass: ErrorClass, _ evidence: @autoclosure () -> ErrorEvidence, at instant: MonotonicInstant = .now()) -> String {
        recorder.recordError(errorClass, at: instant, client: clientIndex, iteration: iteration, detail: plan.redactor.detail(evidence()))
    }

    /// Hands a figure of the caller to the recorder.
    func record(_ figure: CallerSession.Figure) {
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
