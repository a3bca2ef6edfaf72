import Testing
import VoiceLoad

@testable import AgentSimulator

@Suite("SimulatorTally: what a run or a capacity step takes")
struct SimulatorTallyTests {
    private func ended(_ tally: SimulatorTally, faults: [String: Int], replyLatenessUs: [Int64]) {
        var statistics = SimulatorStatistics()
        statistics.sessions = 1
        statistics.faultsInjected = faults
        tally.sessionOpened()
        tally.sessionEnded(statistics, replyLatenessUs: replyLatenessUs)
    }

    @Test("each take holds the faults and the replies' lateness since the one before; the totals keep everything")
    func takes() {
        let tally = SimulatorTally()
        ended(tally, faults: ["stall": 1], replyLatenessUs: [100, 2_000])
        tally.faultInjected(.refuse(status: 503))
        let first = tally.takeSinceLastTake()
        #expect(first.faultsInjected == ["stall": 1, "refuse_503": 1])
        #expect(first.replyLateness.count == 2)
        #expect(first.replyLateness.summary?.maxMs == 2)

        ended(tally, faults: ["stall": 2], replyLatenessUs: [300])
        let second = tally.takeSinceLastTake()
        #expect(second.faultsInjected.filter { $0.value != 0 } == ["stall": 2])
        #expect(second.replyLateness.count == 1)

        let third = tally.takeSinceLastTake()
        #expect(third.faultsInjected.allSatisfy { $0.value == 0 })
        #expect(third.replyLateness.count == 0)
        #expect(tally.totals.faultsInjected == ["stall": 3, "refuse_503": 1])
        #expect(tally.totals.sessions == 2)
        #expect(tally.sessionsOpen == 0)
    }
}
