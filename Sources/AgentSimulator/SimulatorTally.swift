import Synchronization

/// Numbers sessions as they connect, counts those open (the load on the agent's workers) and
/// sums what they did when they end; shared by every connection of a simulator, across its
/// event loops.
final class SimulatorTally: Sendable {
    private struct State {
        var sessionsConnected: UInt64 = 0
        var handoffs: UInt64 = 0
        var totals = SimulatorStatistics()
    }

    private let state = Mutex(State())
    /// Read on every inbound frame when the simulator has a capacity model: an atomic, not the lock.
    private let open = Atomic<Int>(0)

    /// A session has connected: its 1-based number. It counts as open until `sessionEnded`.
    func sessionOpened() -> UInt64 {
        open.add(1, ordering: .relaxed)
        return state.withLock {
            $0.sessionsConnected += 1
            return $0.sessionsConnected
        }
    }

    /// A session has ended: it is no longer open, and what it did is added to the totals.
    func sessionEnded(_ statistics: SimulatorStatistics) {
        open.subtract(1, ordering: .relaxed)
        state.withLock { $0.totals.add(statistics) }
    }

    /// The sessions connected and not yet ended.
    var sessionsOpen: Int { open.load(ordering: .relaxed) }

    /// The number of a REST hand-off token.
    func nextHandoffNumber() -> UInt64 {
        state.withLock {
            $0.handoffs += 1
            return $0.handoffs
        }
    }

    var totals: SimulatorStatistics { state.withLock { $0.totals } }
}
