import NIOCore
import Synchronization
import WSCore

/// When a time-bounded run stops starting sessions, and when it winds down the sessions still
/// open (`drainMs` later): at its duration, or, for a closed model with a `RunOvertime`, at the
/// check where the overtime says to stop. A run bounded by count has no end here.
package final class RunEnd: Sendable {
    private struct State {
        var stopStartingAt: MonotonicInstant?
        var pending: Scheduled<Void>?
        var cancelled = false
    }

    private let state: Mutex<State>
    private let durationEndsAt: MonotonicInstant?
    private let overtime: RunOvertime?

    /// The end of `load` started at `startedAt`; `overtime` applies to a time-bounded closed model only.
    package init(load: LoadProfile, startedAt: MonotonicInstant, overtime: RunOvertime? = nil) {
        let endsAt = load.durationMs.map { startedAt.advanced(byMilliseconds: Int64($0)) }
        durationEndsAt = endsAt
        self.overtime = load.model == .closed && endsAt != nil ? overtime : nil
        // With an overtime, starts go on one check past the duration until the check there
        // decides (a client finishing a session just before it must not stop for good).
        let margin = Int64(self.overtime?.checkEveryMs ?? 0)
        state = Mutex(State(stopStartingAt: endsAt?.advanced(byMilliseconds: margin)))
    }

    /// Clients start no session at or after this instant (nil: the run is bounded by count).
    package var stopStartingAt: MonotonicInstant? { state.withLock { $0.stopStartingAt } }

    /// Schedules the end on `eventLoop`: the overtime's checks if any, then the drain limit,
    /// which calls `windDown`. `report` builds the report as it stands for the overtime;
    /// `isWindingDown` tells whether something else (a signal) already ends the run.
    func start(
        on eventLoop: any EventLoop,
        drainMs: Int,
        report: @escaping @Sendable () -> RunReport,
        isWindingDown: @escaping @Sendable () -> Bool,
        windDown: @escaping @Sendable () -> Void
    ) {
        guard let durationEndsAt else { return }
        guard let overtime else {
            schedule(at: durationEndsAt.advanced(byMilliseconds: Int64(drainMs)), on: eventLoop, windDown)
            return
        }
        @Sendable func decide() {
            let now = MonotonicInstant.now()
            let pastMs = Int(max(0, now.milliseconds(since: durationEndsAt)))
            if !isWindingDown(), overtime.goOn(report(), pastMs) {
                let next = now.advanced(byMilliseconds: Int64(overtime.checkEveryMs))
                state.withLock { $0.stopStartingAt = next.advanced(byMilliseconds: Int64(overtime.checkEveryMs)) }
                schedule(at: next, on: eventLoop, check)
            } else {
                let stop = state.withLock { state in
                    state.stopStartingAt = min(now, state.stopStartingAt ?? now)
                    return state.stopStartingAt ?? now
                }
                schedule(at: stop.advanced(byMilliseconds: Int64(drainMs)), on: eventLoop, windDown)
            }
        }
        // The report is built off the event loop: it takes longer the more the run has recorded
        // (tens of ms a minute into a step), and the loop's sessions must not wait for it.
        @Sendable func check() { Task.detached(priority: .utility) { decide() } }
        schedule(at: durationEndsAt, on: eventLoop, check)
    }

    /// Nothing more is scheduled (the run's sessions have all ended).
    func cancel() {
        let pending = state.withLock { state in
            state.cancelled = true
            return state.pending
        }
        pending?.cancel()
    }

    private func schedule(at instant: MonotonicInstant, on eventLoop: any EventLoop, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard !state.cancelled else { return }
            state.pending = eventLoop.scheduleTask(deadline: instant.deadline, work)
        }
    }
}
