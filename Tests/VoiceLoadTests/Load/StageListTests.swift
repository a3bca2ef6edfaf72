import Testing

@testable import VoiceLoad

@Suite("Stages")
struct StageListTests {
    @Test func parsesClientStagesAndRampsLinearlyFromZero() throws {
        let list = try StageList.parse("10s:50, 20s:50,10s:0")
        #expect(list.kind == .clients)
        #expect(
            list.stages == [
                LoadStage(durationMs: 10_000, target: 50), LoadStage(durationMs: 20_000, target: 50),
                LoadStage(durationMs: 10_000, target: 0),
            ]
        )
        #expect(list.totalDurationMs == 40_000)
        #expect(list.peak == 50)
        #expect(list.target(atMs: 0) == 0)
        #expect(list.target(atMs: 5_000) == 25)
        #expect(list.target(atMs: 20_000) == 50)
        #expect(list.target(atMs: 35_000) == 25)
        #expect(list.target(atMs: 99_000) == 0)
    }

    @Test func parsesRateStagesInAnyUnit() throws {
        let list = try StageList.parse("1m:10/s,30s:600/m")
        #expect(list.kind == .arrivalRate)
        #expect(list.stages.map(\.target) == [10, 10])
    }

    @Test func rejectsBadStages() {
        for text in ["", "10s", "10s:abc", "10s:5,20s:2/s", "10s:0,5s:0", "0s:10", "x:10", "10s:-1"] {
            #expect(throws: InputError.self, "\(text)") { try StageList.parse(text) }
        }
    }

    @Test func slotIsActiveWhileTheTargetIsAboveIt() throws {
        let list = try StageList.parse("10s:10,10s:10,10s:0")
        // Slot 0 from the start until the target falls to 0 at the very end.
        #expect(list.activeIntervalsMs(ofSlot: 0) == [0..<30_000])
        // Slot 4: the ramp passes 4 at 4 s and comes back down to 4 at 26 s.
        let slot4 = list.activeIntervalsMs(ofSlot: 4)
        #expect(slot4.count == 1)
        #expect(abs(slot4[0].lowerBound - 4_000) < 1e-6)
        #expect(abs(slot4[0].upperBound - 26_000) < 1e-6)
        // Never above 10 clients.
        #expect(list.activeIntervalsMs(ofSlot: 10).isEmpty)
    }

    @Test func aSlotCanComeBackInALaterStage() throws {
        let list = try StageList.parse("10s:4,10s:0,10s:4")
        let intervals = list.activeIntervalsMs(ofSlot: 2)
        #expect(intervals.count == 2)
        #expect(abs(intervals[0].lowerBound - 5_000) < 1e-6)
        #expect(abs(intervals[0].upperBound - 15_000) < 1e-6)
        #expect(abs(intervals[1].lowerBound - 25_000) < 1e-6)
        #expect(intervals[1].upperBound == 30_000)
    }
}
