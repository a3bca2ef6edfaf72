import Synchronization
import WSCore

/// Interruption of a run by signals, shared by the command line (which receives them) and the
/// runs (which wind down): the first signal stops new sessions and gives the open ones a grace
/// period to hang up; a second one means exit at once.
///
/// The transitions are the value type `State`; this class makes them atomic and tells the
/// runs that observe it (`observeWindDown`) when the wind-down begins.
package final class RunInterruption: Sendable {
    /// The grace period when none is given (`--grace`).
    package static let defaultGraceMs = 5_000

    /// Where the interruption stands.
    package enum Phase: Sendable, Hashable {
        case running
        /// Interrupted by `signal`: no new session starts; open ones hang up by `deadline`.
        case windingDown(signal: InterruptSignal, deadline: MonotonicInstant)
        /// A second signal came after `signal`: the process exits at once.
        case forced(signal: InterruptSignal)
    }

    /// What the receiver of a signal must do.
    package enum Response: Sendable, Hashable {
        /// Stop starting sessions and wind the open ones down by `deadline`.
        case windDown(deadline: MonotonicInstant)
        /// Write what can be written at once and exit with `code`.
        case exitNow(code: Int32)
    }

    /// running → winding down (signal, deadline) → forced.
    package struct State: Sendable, Hashable {
        package private(set) var phase = Phase.running

        package init() {}

        /// A signal at `now`: the first starts the wind-down, due `graceMs` later; any later
        /// one forces the exit, with the code of the signal that forced it.
        package mutating func receive(_ signal: InterruptSignal, at now: MonotonicInstant, graceMs: Int) -> Response {
            switch phase {
            case .running:
                let deadline = now.advanced(byMilliseconds: Int64(max(0, graceMs)))
                phase = .windingDown(signal: signal, deadline: deadline)
                return .windDown(deadline: deadline)
            case .windingDown(let first, _), .forced(let first):
                phase = .forced(signal: first)
                return .exitNow(code: signal.exitCode)
            }
        }

        /// The signal that interrupted the run; nil while it runs.
        package var signal: InterruptSignal? {
            switch phase {
            case .running: return nil
            case .windingDown(let signal, _), .forced(let signal): return signal
            }
        }

        /// When open sessions must have hung up; nil while running.
        package var deadline: MonotonicInstant? {
            if case .windingDown(_, let deadline) = phase { return deadline }
            return nil
        }
    }

    private struct Shared {
        var state = State()
        var observers: [Int: @Sendable (MonotonicInstant) -> Void] = [:]
        var nextObserver = 0
        var forcedExitReport: (@Sendable () -> Void)?
    }

    /// How long open sessions get to hang up after the first signal.
    package let graceMs: Int
    private let shared = Mutex(Shared())

    package init(graceMs: Int = RunInterruption.defaultGraceMs) {
        self.graceMs = max(0, graceMs)
    }

    package var phase: Phase { shared.withLock { $0.state.phase } }

    /// The signal that interrupted the run; nil while it runs uninterrupted.
    package var signal: InterruptSignal? { shared.withLock { $0.state.signal } }

    /// Takes a signal (from any thread) and returns what to do; on the first, every observer
    /// is told the deadline.
    package func receive(_ signal: InterruptSignal, at now: MonotonicInstant = .now()) -> Response {
        let (response, observers) = shared.withLock { shared in
            (shared.state.receive(signal, at: now, graceMs: graceMs), Array(shared.observers.values))
        }
        if case .windDown(let deadline) = response {
            for observer in observers { observer(deadline) }
        }
        return response
    }

    /// Calls `handler` with the deadline when the wind-down begins — at once when it already
    /// has (with now as the deadline once forced). Returns the key for `stopObserving`.
    @discardableResult
    package func observeWindDown(_ handler: @escaping @Sendable (MonotonicInstant) -> Void) -> Int {
        let (key, phase) = shared.withLock { shared in
            let key = shared.nextObserver
            shared.nextObserver += 1
            shared.observers[key] = handler
            return (key, shared.state.phase)
        }
        switch phase {
        case .running: break
        case .windingDown(_, let deadline): handler(deadline)
        case .forced: handler(.now())
        }
        return key
    }

    package func stopObserving(_ key: Int) {
        _ = shared.withLock { $0.observers.removeValue(forKey: key) }
    }

    /// What a forced exit writes first (the run's report.json from its recorder as it
    /// stands); nil when there is nothing to write.
    package func setForcedExitReport(_ write: (@Sendable () -> Void)?) {
        shared.withLock { $0.forcedExitReport = write }
    }

    /// Runs the forced-exit writer, if a run set one (synchronously, on the caller's thread).
    package func writeForcedExitReport() {
        let write = shared.withLock { $0.forcedExitReport }
        write?()
    }
}
