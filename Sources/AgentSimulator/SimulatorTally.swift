import Synchronization
import VoiceLoad

/// Numbers sessions as they ask to connect, counts those open (the load on the agent's workers)
/// and sums what they did when they end (and the upgrades refused by a fault); shared by every
/// connection of a simulator, across its event loops.
final class SimulatorTally: Sendable {
    private struct State {
        var upgradeRequests: UInt64 = 0
        var handoffs: UInt64 = 0
        var totals = SimulatorStatistics()
        var replyLateness = LatencyHistogram()
        /// The fault counts at the last `takeSinceLastTake`.
        var faultsTaken: [String: Int] = [:]
    }

    private let state = Mutex(State())
    /// Read on every inbound frame when the simulator has a capacity model: an atomic, not the lock.
    private let open = Atomic<Int>(0)

    /// An upgrade request has come: the session's 1-based number, in the order of requests.
    func nextSessionNumber() -> UInt64 {
        state.withLock {
            $0.upgradeRequests += 1
            return $0.upgradeRequests
        }
    }

    /// A session has connected. It counts as open until `sessionEnded`.
    func sessionOpened() {
        open.add(1, ordering: .relaxed)
    }

    /// A fault performed outside any session (a refused upgrade).
    func faultInjected(_ fault: InjectedFault) {
        state.withLock { $0.totals.faultsInjected[fault.countKey, default: 0] += 1 }
    }

    /// A session has ended: it is no longer open, and what it did (and how late its replies
    /// started, µs) is added to the totals.
    func sessionEnded(_ statistics: SimulatorStatistics, replyLatenessUs: [Int64]) {
        open.subtract(1, ordering: .relaxed)
        state.withLock {
            $0.totals.add(statistics)
            for lateUs in replyLatenessUs { $0.replyLateness.record(microseconds: lateUs) }
        }
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

    var replyLateness: LatencyHistogram { state.withLock { $0.replyLateness } }

    /// The faults performed (those that struck) and the replies' lateness recorded since the
    /// last call (since the start for the first): one run's, or one capacity step's.
    func takeSinceLastTake() -> (faultsInjected: [String: Int], replyLateness: LatencyHistogram) {
        state.withLock { state in
            let faults = state.totals.faultsInjected.merging(state.faultsTaken.mapValues { -$0 }, uniquingKeysWith: +)
                .filter { $0.value != 0 }
            let lateness = state.replyLateness
            state.faultsTaken = state.totals.faultsInjected
            state.replyLateness = LatencyHistogram()
            return (faults, lateness)
        }
    }
}
