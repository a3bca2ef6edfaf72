import Synchronization

/// Numbers sessions as they connect and sums what they did when they end; shared by every
/// connection of a simulator.
final class SimulatorTally: Sendable {
    private struct State {
        var sessionsConnected: UInt64 = 0
        var handoffs: UInt64 = 0
        var totals = SimulatorStatistics()
    }

    private let state = Mutex(State())

    /// The 1-based number of a session that has just connected.
    func nextSessionNumber() -> UInt64 {
        state.withLock {
            $0.sessionsConnected += 1
            return $0.sessionsConnected
        }
    }

    /// The number of a REST hand-off token.
    func nextHandoffNumber() -> UInt64 {
        state.withLock {
            $0.handoffs += 1
            return $0.handoffs
        }
    }

    func add(_ statistics: SimulatorStatistics) {
        state.withLock { $0.totals.add(statistics) }
    }

    var totals: SimulatorStatistics { state.withLock { $0.totals } }
}
