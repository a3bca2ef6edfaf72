import NIOCore
import Synchronization
import WSCore

/// Something a run can wind down: a virtual client (tests use stand-ins).
package protocol WindDownTarget: AnyObject, Sendable {
    /// Start no further step: hang up the session under way by `deadline` (outcome `interrupted`).
    func windDown(deadline: MonotonicInstant) async
}

/// The virtual clients of one run, and whether the run is winding down (a signal, or the drain
/// limit of a time-bounded run). The executor asks it before every session start, sleeps
/// through it until a client's start so that a wind-down wakes the sleeper, and registers
/// every client so that a wind-down reaches each one.
package final class OpenSessions: Sendable {
    private struct State {
        var deadline: MonotonicInstant?
        var clients: [ObjectIdentifier: any WindDownTarget] = [:]
        var sleepers: [Int: Scheduled<Void>] = [:]
        var nextSleeper = 0
        /// Wind-downs on their way to clients; awaited before the clients' loops shut down.
        var deliveries: [Task<Void, Never>] = []
        var closed = false
    }

    private let state = Mutex(State())

    package init() {}

    /// Whether the run is winding down: no session may start.
    package var isWindingDown: Bool { state.withLock { $0.deadline != nil } }

    /// When open sessions must have hung up; nil while the run goes on.
    package var deadline: MonotonicInstant? { state.withLock { $0.deadline } }

    /// Clients registered now.
    package var count: Int { state.withLock { $0.clients.count } }

    /// Adds `client` for the length of its sessions. False (and not added) once the run winds
    /// down: the client must not start.
    package func register(_ client: any WindDownTarget) -> Bool {
        state.withLock { state in
            guard state.deadline == nil else { return false }
            state.clients[ObjectIdentifier(client)] = client
            return true
        }
    }

    /// The client has run its last session.
    package func leave(_ client: any WindDownTarget) {
        _ = state.withLock { $0.clients.removeValue(forKey: ObjectIdentifier(client)) }
    }

    /// Stops every start and tells each registered client to hang up by `deadline`; sleepers
    /// wake. A second call can only bring the deadline forward.
    package func windDown(deadline: MonotonicInstant) {
        let sleepers = state.withLock { state in
            let effective = min(deadline, state.deadline ?? deadline)
            state.deadline = effective
            if !state.closed {
                for client in state.clients.values {
                    state.deliveries.append(Task { await client.windDown(deadline: effective) })
                }
            }
            let sleepers = Array(state.sleepers.values)
            state.sleepers = [:]
            return sleepers
        }
        for sleeper in sleepers { sleeper.cancel() }
    }

    /// The run is over: a later wind-down reaches no client. Returns once the wind-downs
    /// already sent have arrived, so that none lands on an event loop after it shut down.
    package func close() async {
        let deliveries = state.withLock { state in
            state.closed = true
            defer { state.deliveries = [] }
            return state.deliveries
        }
        for delivery in deliveries { await delivery.value }
    }

    /// Sleeps until `instant` on `eventLoop`, or until the run winds down if that comes first.
    package func sleep(until instant: MonotonicInstant, on eventLoop: any EventLoop) async {
        guard instant > .now() else { return }
        let scheduled = eventLoop.scheduleTask(deadline: instant.deadline) {}
        let key: Int? = state.withLock { state in
            guard state.deadline == nil else { return nil }
            let key = state.nextSleeper
            state.nextSleeper += 1
            state.sleepers[key] = scheduled
            return key
        }
        guard let key else {
            scheduled.cancel()
            return
        }
        try? await scheduled.futureResult.get()
        _ = state.withLock { $0.sleepers.removeValue(forKey: key) }
    }
}
