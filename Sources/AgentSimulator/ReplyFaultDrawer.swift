import Synchronization

/// Draws the per-turn fault of each reply the agent starts, numbering the replies across every
/// session of a simulator (the m of `FaultPlan.turnFault`). Shared by the sessions, across
/// their event loops.
final class ReplyFaultDrawer: Sendable {
    let plan: FaultPlan
    let seed: UInt64
    private let replies = Atomic<UInt64>(0)

    init(plan: FaultPlan, seed: UInt64) {
        self.plan = plan
        self.seed = seed
    }

    /// The next reply's fault, if it gets one.
    func next() -> InjectedFault? {
        guard !plan.turnFaults.isEmpty else { return nil }
        let number = replies.add(1, ordering: .relaxed).newValue
        return plan.turnFault(replyNumber: number, seed: seed)
    }
}
