import NIOCore
import WSClient
import WSCore

/// Winding down (a signal, or the run's drain limit): the call under way stops its steps and
/// hangs up cleanly — the dialect's stop, its end-of-session event awaited until the deadline,
/// close 1000 — and the caller places no other.
extension VirtualClient: WindDownTarget {
    /// The waiting step wakes with `SessionWoundDown` (a step about to start throws it), and
    /// `runSession` hangs up by `deadline`; `CallAttempt.windDown(by:)` decides.
    package func windDown(deadline: MonotonicInstant) {
        perform(attempt.windDown(by: deadline))
    }

    /// The connection `future` opens, unless the run winds down first (`SessionWoundDown`);
    /// a connection that opens after that is closed at once.
    func connectionUnlessWoundDown<Connection: CallerConnection>(
        _ future: EventLoopFuture<Connection>
    ) async throws -> Connection {
        let promise = eventLoop.makePromise(of: Connection.self)
        future.cascade(to: promise)
        if attempt.windDownDeadline != nil { promise.fail(SessionWoundDown()) }
        future.whenSuccess { connection in
            promise.futureResult.whenFailure { _ in connection.close(code: 1000) }
        }
        abandonPendingConnect = { promise.fail(SessionWoundDown()) }
        defer { abandonPendingConnect = nil }
        return try await promise.futureResult.get()
    }

    /// Hangs up with what is left of the grace period; with nothing left, `finishSession`
    /// closes the connection at once.
    func hangUpWindingDown() async {
        guard let remainingMs = windDownHangUpMs() else { return }
        try? await hangUp(timeoutMs: remainingMs)
    }

    /// Out of line, as every synchronous part of an async step (`VirtualClient+Steps`).
    @inline(never)
    private func windDownHangUpMs() -> Int? {
        attempt.windDownHangUpMs(at: .now())
    }
}
