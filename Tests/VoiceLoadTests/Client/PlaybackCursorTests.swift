import Testing
import WSCore

@testable import VoiceLoad

private func ms(_ value: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(value) * 1_000_000)
}

@Suite("PlaybackCursor")
struct PlaybackCursorTests {
    @Test("audio faster than real time queues; heard audio advances in real time")
    func heardAdvancesInRealTime() {
        var cursor = PlaybackCursor()
        cursor.startTurn(at: ms(0))
        for _ in 0..<10 { cursor.enqueue(durationUs: 200_000, at: ms(0)) }  // 2 s arrives at once
        #expect(cursor.drainsAt == ms(2_000))
        #expect(cursor.heardUs(at: ms(700)) == 700_000)
        #expect(cursor.heardUs(at: ms(5_000)) == 2_000_000)
        #expect(cursor.instant(whenHeardReaches: 1_500_000) == ms(1_500))
        #expect(cursor.instant(whenHeardReaches: 2_500_000) == nil)  // not received yet
    }

    @Test("the jitter buffer delays the start of playback, and again after an underrun")
    func jitterBuffer() {
        var cursor = PlaybackCursor(jitterBufferUs: 200_000)
        cursor.startTurn(at: ms(0))
        cursor.enqueue(durationUs: 500_000, at: ms(0))
        #expect(cursor.heardUs(at: ms(100)) == 0)
        #expect(cursor.heardUs(at: ms(400)) == 200_000)
        // Underrun: played out at 700; the next chunk at 1000 plays from 1200.
        cursor.enqueue(durationUs: 500_000, at: ms(1_000))
        #expect(cursor.heardUs(at: ms(1_100)) == 500_000)
        #expect(cursor.heardUs(at: ms(1_300)) == 600_000)
        #expect(cursor.instant(whenHeardReaches: 900_000) == ms(1_600))
    }

    @Test("a new turn counts from zero; a flush drops what was not played")
    func newTurnAndFlush() {
        var cursor = PlaybackCursor()
        cursor.startTurn(at: ms(0))
        cursor.enqueue(durationUs: 1_000_000, at: ms(0))
        cursor.startTurn(at: ms(400))  // the next turn starts while 600 ms still play
        cursor.enqueue(durationUs: 1_000_000, at: ms(400))
        #expect(cursor.heardUs(at: ms(900)) == 0)
        #expect(cursor.heardUs(at: ms(1_300)) == 300_000)
        cursor.flush(at: ms(1_300))
        #expect(cursor.isDrained(at: ms(1_300)))
        #expect(cursor.heardUs(at: ms(3_000)) == 300_000)
    }
}
