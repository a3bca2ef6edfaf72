import Testing
import WSCore

@testable import VoiceLoad

/// Instants on a made-up timeline, in milliseconds from an arbitrary origin.
private func ms(_ value: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(value) * 1_000_000)
}

private func chunk(durationMs: Int64 = 40, rms: Float = 0.2) -> AgentAudioChunk {
    AgentAudioChunk(byteCount: Int(durationMs) * 48, durationUs: durationMs * 1_000, rmsLevel: rms)
}

private func tracker(_ signal: TurnEndSignal = .audioGap, quietMs: Int64 = 500) -> TurnTracker {
    var configuration = TurnTracker.Configuration()
    configuration.turnEndSignal = signal
    configuration.quietMs = quietMs
    return TurnTracker(configuration: configuration, client: 3, iteration: 1)
}

@Suite("TurnTracker")
struct TurnTrackerTests {
    @Test("greeting_ms is first agent audio after ready, and is not a user turn")
    func greeting() {
        var turns = tracker()
        turns.sessionReady(at: ms(100))
        turns.agentAudio(chunk(), at: ms(400))
        turns.agentAudio(chunk(), at: ms(440))
        #expect(turns.nextQuietCheck == ms(940))
        #expect(turns.checkQuiet(at: ms(900)).ended == false)
        let result = turns.checkQuiet(at: ms(940))
        #expect(result.ended)
        #expect(result.record == nil)
        #expect(turns.greetingUs == 300_000)
        #expect(turns.agentTurnsEnded == 1)
    }

    @Test("first audio after the end of speech gives first_audio_from_end/start and turn duration")
    func responseTurn() throws {
        var turns = tracker()
        turns.sessionReady(at: ms(0))
        // Mic opens at 1000; speech at 300…1800 ms of the clip → T_us_start 1300, T_us_end 2800.
        #expect(turns.utteranceStarted(label: "ask", micOpenAt: ms(1_000), speechStartUs: 300_000, speechEndUs: 1_800_000) == nil)
        turns.agentAudio(chunk(rms: 0.001), at: ms(3_500))  // leading silence of the reply
        turns.agentAudio(chunk(rms: 0.2), at: ms(3_540))
        turns.agentAudio(chunk(rms: 0.2), at: ms(3_580))
        let result = turns.checkQuiet(at: ms(4_200))
        let row = try #require(result.record)
        #expect(row.outcome == .completed)
        #expect(row.label == "ask" && row.turn == 1 && row.client == 3 && row.iteration == 1)
        #expect(row.firstAudioFromEndUs == 700_000)
        #expect(row.firstAudioFromStartUs == 2_200_000)
        #expect(row.firstVoicedAudioFromEndUs == 740_000)
        #expect(row.turnDurationUs == 80_000)  // first chunk → arrival of the last chunk
        #expect(row.speechStartOffsetUs == 300_000 && row.speechEndOffsetUs == 1_800_000)
        #expect(turns.greetingUs == nil)
    }

    @Test("a turn starting while the user still speaks is a premature_response without latency")
    func premature() throws {
        var turns = tracker()
        turns.sessionReady(at: ms(0))
        _ = turns.utteranceStarted(label: "t", micOpenAt: ms(1_000), speechStartUs: 200_000, speechEndUs: 2_000_000)
        turns.agentAudio(chunk(), at: ms(1_500))
        let row = try #require(turns.checkQuiet(at: ms(2_100)).record)
        #expect(row.outcome == .prematureResponse)
        #expect(row.firstAudioFromEndUs == nil && row.turnDurationUs == nil)
    }

    @Test("the playback cursor holds the turn open until faster-than-real-time audio has played")
    func playbackDrain() {
        var turns = tracker(quietMs: 100)
        turns.sessionReady(at: ms(0))
        for index in 0..<10 { turns.agentAudio(chunk(durationMs: 100), at: ms(1_000 + Int64(index))) }
        // 1 s of audio arrived in 10 ms: it plays until 2000 ms.
        #expect(turns.playback.drainsAt == ms(2_000))
        #expect(turns.nextQuietCheck == ms(2_000))
        #expect(turns.checkQuiet(at: ms(1_500)).ended == false)
        #expect(turns.checkQuiet(at: ms(2_000)).ended)
    }

    @Test("an explicit end-of-turn event ends the turn at its arrival")
    func explicitTurnEnd() throws {
        var turns = tracker(.event)
        turns.sessionReady(at: ms(0))
        _ = turns.utteranceStarted(label: "t", micOpenAt: ms(0), speechStartUs: 0, speechEndUs: 1_000_000)
        turns.agentAudio(chunk(), at: ms(1_600))
        #expect(turns.nextQuietCheck == nil)
        let ended = turns.agentTurnEnded(at: ms(3_000))
        let row = try #require(ended)
        #expect(row.firstAudioFromEndUs == 600_000)
        #expect(row.turnDurationUs == 1_400_000)
    }

    @Test("an interruption ends the turn as interrupted and flushes playback")
    func interruption() throws {
        var turns = tracker()
        turns.sessionReady(at: ms(0))
        _ = turns.utteranceStarted(label: "t", micOpenAt: ms(0), speechStartUs: 0, speechEndUs: 1_000_000)
        turns.agentAudio(chunk(durationMs: 2_000), at: ms(1_500))
        let ended = turns.bargeInSignal(.interrupted, at: ms(1_700))
        let row = try #require(ended)
        #expect(row.outcome == .interrupted)
        #expect(turns.playback.isDrained(at: ms(1_700)))
    }

    @Test("a timed-out wait keeps what was measured: censored, not dropped")
    func censored() throws {
        var turns = tracker()
        turns.sessionReady(at: ms(0))
        _ = turns.utteranceStarted(label: "t", micOpenAt: ms(0), speechStartUs: 0, speechEndUs: 1_000_000)
        #expect(turns.finishPendingUtterance(outcome: .timedOut).map(\.outcome) == [.timedOut])
        _ = turns.utteranceStarted(label: "u", micOpenAt: ms(5_000), speechStartUs: 0, speechEndUs: 1_000_000)
        turns.agentAudio(chunk(), at: ms(6_300))
        let ended = turns.finishPendingUtterance(outcome: .timedOut)
        let row = try #require(ended.first)
        #expect(ended.count == 1)
        #expect(row.outcome == .timedOut && row.turn == 2)
        #expect(row.firstAudioFromEndUs == 300_000)
        #expect(row.turnDurationUs == nil)
        // The answer under way no longer belongs to any utterance.
        #expect(turns.checkQuiet(at: ms(7_000)).record == nil)
    }
}

@Suite("Microphone")
struct MicrophoneTests {
    @Test("frame k of the stream is due at open + (k+1)·frame, clip frames then silence")
    func pacing() throws {
        let silence = PreparedAudio(sharedFrame: EncodedFrame(.text("silence")), byteCount: 0)
        let utterance = PreparedUtterance.testClip(frameCount: 2)
        let frames = FrameSet(utterance: utterance, dialect: EchoDialect())
        var microphone = Microphone(frameMs: 40, openedAt: ms(0))
        #expect(microphone.start(frames) == ms(0))
        let first = microphone.takeNextFrame(silence: silence)
        #expect(first.deadline == ms(40) && !first.clipFinished)
        let second = microphone.takeNextFrame(silence: silence)
        #expect(second.deadline == ms(80) && second.clipFinished)
        #expect(!microphone.isSpeaking)
        let third = microphone.takeNextFrame(silence: silence)
        #expect(third.deadline == ms(120))
        #expect(third.frame.sharedFrame?.payload == silence.sharedFrame?.payload)
        // A clip started now begins at the next slot: T_mic_open = 120 ms.
        #expect(microphone.start(frames) == ms(120))
    }
}
