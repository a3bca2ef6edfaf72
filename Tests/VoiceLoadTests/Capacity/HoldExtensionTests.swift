import Testing
import VoiceLoad

/// A step's hold extended for samples, as a value type: shortfalls in, go on or stop out.
@Suite("Hold extension")
struct HoldExtensionTests {
    private let short = [SampleShortfall(expression: "first_audio_from_end_ms.p95 < 900", count: 11, needed: 20)]

    @Test("no shortfall when the hold ends: no extension, nothing recorded")
    func notNeeded() throws {
        var hold = try HoldExtension(holdMs: 20_000, maxHoldMs: 80_000)
        #expect(hold.decide(pastHoldMs: 3, shortfalls: []) == .stop)
        #expect(hold.extendedMs == 0 && hold.outcome == nil && hold.record == nil)
    }

    @Test("extends while samples are short, stops once they suffice, and says by how much")
    func untilSamplesSuffice() throws {
        var hold = try HoldExtension(holdMs: 20_000, maxHoldMs: 80_000)
        #expect(hold.decide(pastHoldMs: 2, shortfalls: short) == .goOn(shortfalls: short, first: true))
        #expect(hold.decide(pastHoldMs: 1_003, shortfalls: short) == .goOn(shortfalls: short, first: false))
        #expect(hold.decide(pastHoldMs: 7_004, shortfalls: []) == .stop)
        #expect(hold.decide(pastHoldMs: 8_000, shortfalls: short) == .stop)  // once stopped, stays stopped
        #expect(hold.extendedMs == 7_004 && hold.outcome == .samplesSuffice)
        let record = try #require(hold.record)
        #expect(record.extendedS == 7.004 && record.maxHoldS == 80 && record.shortfalls.isEmpty)
        #expect(record.text == "hold extended 7.0 s (samples suffice)")
    }

    @Test("stops at --max-hold with what is still short")
    func atMaxHold() throws {
        var hold = try HoldExtension(holdMs: 20_000, maxHoldMs: 30_000)
        #expect(hold.decide(pastHoldMs: 0, shortfalls: short) == .goOn(shortfalls: short, first: true))
        #expect(hold.decide(pastHoldMs: 9_000, shortfalls: short) == .goOn(shortfalls: short, first: false))
        #expect(hold.decide(pastHoldMs: 10_001, shortfalls: short) == .stop)
        #expect(hold.outcome == .maxHoldReached && hold.extendedMs == 10_001)
        #expect(
            hold.record?.text
                == "hold extended 10.0 s to --max-hold 30 s: first_audio_from_end_ms.p95 < 900 has 11 of the 20 samples it needs"
        )
    }

    @Test("--max-hold equal to --hold allows no extension; below it is bad input; the default is 4 × hold")
    func settings() throws {
        var hold = try HoldExtension(holdMs: 20_000, maxHoldMs: 20_000)
        #expect(hold.decide(pastHoldMs: 1, shortfalls: short) == .stop)
        #expect(hold.outcome == .maxHoldReached && hold.extendedMs == 0)
        #expect(throws: InputError("--max-hold (10 s) must be at least --hold (20 s)")) {
            try HoldExtension(holdMs: 20_000, maxHoldMs: 10_000)
        }
        #expect(HoldExtension.defaultMaxHoldMs(holdMs: 20_000) == 80_000)
    }
}
