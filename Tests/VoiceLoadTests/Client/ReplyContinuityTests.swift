import Testing
import WSCore

@testable import VoiceLoad

/// Instants on a made-up timeline, in milliseconds from an arbitrary origin.
private func ms(_ value: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(value) * 1_000_000)
}

/// One turn's chunks of 40 ms arriving at `arrivals` (ms), played with a 60 ms jitter buffer.
private func play(_ arrivals: [Int64], jitterBufferMs: Int64 = 60) -> ReplyContinuity {
    var cursor = PlaybackCursor(jitterBufferUs: jitterBufferMs * 1_000)
    var continuity = ReplyContinuity()
    cursor.startTurn(at: ms(arrivals.first ?? 0))
    for at in arrivals {
        let underrun = cursor.enqueue(durationUs: 40_000, at: ms(at))
        continuity.chunkArrived(durationUs: 40_000, at: ms(at), underrun: underrun)
    }
    return continuity
}

@Suite("Reply continuity (stall_count, stall_ms, reply_rtf)")
struct ReplyContinuityTests {
    @Test("real-time audio behind a 60 ms prebuffer never runs dry; reply_rtf = 400 ms / 360 ms")
    func realTime() {
        let continuity = play((0..<10).map { $0 * 40 })
        #expect(continuity.stallCount == 0 && continuity.stallUs == 0)
        #expect(continuity.replyRTF == 400.0 / 360)
    }

    @Test("arrival jitter within the prebuffer is absorbed: a chunk 59 ms late still joins the queue")
    func jitterAbsorbed() {
        // Chunk 3 is due at 120 but comes at 179; chunk 2 plays out at 60 + 120 = 180.
        #expect(play([0, 40, 80, 179, 180, 200]).stallCount == 0)
    }

    @Test("slow_audio:0.8: chunks every 50 ms run dry at chunk 6 and 12, each a 60 ms rebuffer")
    func slowAudio() {
        // Chunk k plays at 60 + 40k until chunk 6 arrives at 300 as chunk 5 ends (drained:
        // a stall, resumed at 360); then chunk 12 arrives at 600 as chunk 11 ends at 600.
        let continuity = play((0...12).map { $0 * 50 })
        #expect(continuity.stallCount == 2)
        #expect(continuity.stallUs == 120_000)
        #expect(continuity.replyRTF == 520.0 / 600)
    }

    @Test("one pause of 300 ms mid-reply: one stall of exactly 300 ms (the prebuffer's 60 ms lead is spent again on rebuffering)")
    func gap() {
        // Chunks 0–4 at 0…160 play 60…260; chunk 5 comes at 160 + 40 + 300 = 500 and plays
        // from 560: 300 ms of silence.
        let continuity = play([0, 40, 80, 120, 160, 500, 540, 580, 620, 660])
        #expect(continuity.stallCount == 1 && continuity.stallUs == 300_000)
        #expect(continuity.replyRTF == 400.0 / 660)
    }

    @Test("a pause shorter than the prebuffer is not heard; without a prebuffer it is, as itself")
    func shortGap() {
        let arrivals: [Int64] = [0, 40, 80, 120, 160, 250, 290]
        #expect(play(arrivals).stallCount == 0)
        let bare = play(arrivals, jitterBufferMs: 0)
        #expect(bare.stallCount == 1 && bare.stallUs == 50_000)
    }

    @Test("the first chunk starts playback and ends no stall, even after the previous turn drained")
    func firstChunk() {
        var cursor = PlaybackCursor(jitterBufferUs: 60_000)
        cursor.enqueue(durationUs: 40_000, at: ms(0))  // the previous turn, played out at 100
        var continuity = ReplyContinuity()
        cursor.startTurn(at: ms(1_000))
        let underrun = cursor.enqueue(durationUs: 40_000, at: ms(1_000))
        #expect(underrun == PlaybackCursor.Underrun(drainedAt: ms(100), resumesAt: ms(1_060)))
        continuity.chunkArrived(durationUs: 40_000, at: ms(1_000), underrun: underrun)
        #expect(continuity.stallCount == 0 && continuity.chunks == 1)
    }

    @Test("one chunk, or audio that all came at one instant, has no reply_rtf")
    func noRate() {
        #expect(play([0]).replyRTF == nil)
        let burst = play([0, 0, 0])
        #expect(burst.replyRTF == nil && burst.audioUs == 120_000 && burst.stallCount == 0)
    }

    @Test("a barge-in stops counting: the stall under way is cut at it, later chunks are left out")
    func bargeIn() {
        var cursor = PlaybackCursor(jitterBufferUs: 60_000)
        var continuity = ReplyContinuity()
        for at: Int64 in [0, 500] {  // played out at 100; the chunk at 500 resumes at 560
            continuity.chunkArrived(durationUs: 40_000, at: ms(at), underrun: cursor.enqueue(durationUs: 40_000, at: ms(at)))
        }
        #expect(continuity.stallUs == 460_000)
        continuity.stop(at: ms(530))
        #expect(continuity.stallCount == 1 && continuity.stallUs == 430_000)
        let late = cursor.enqueue(durationUs: 40_000, at: ms(900))
        continuity.chunkArrived(durationUs: 40_000, at: ms(900), underrun: late)
        #expect(continuity.stallCount == 1 && continuity.chunks == 2 && continuity.replyRTF == 80.0 / 500)
    }

    @Test("a barge-in announced ahead (speech later in the stream): chunks before it count, its stall is cut at it")
    func bargeInAhead() {
        var cursor = PlaybackCursor(jitterBufferUs: 60_000)
        var continuity = ReplyContinuity()
        continuity.chunkArrived(durationUs: 40_000, at: ms(0), underrun: cursor.enqueue(durationUs: 40_000, at: ms(0)))
        continuity.stop(at: ms(520))
        continuity.chunkArrived(durationUs: 40_000, at: ms(500), underrun: cursor.enqueue(durationUs: 40_000, at: ms(500)))
        #expect(continuity.stallCount == 1 && continuity.stallUs == 420_000)
    }
}
