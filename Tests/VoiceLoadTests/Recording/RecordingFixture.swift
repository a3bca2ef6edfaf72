import WSCore

@testable import VoiceLoad

/// Calls to record, on synthetic time: instants are milliseconds after the connect at 0.
enum RecordingFixture {
    static func at(_ ms: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 10_000_000_000 + UInt64(ms) * 1_000_000)
    }

    /// `durationMs` of PCM16 at `rateHz`, every sample `value`.
    static func pcm(_ value: Int16, durationMs: Int, rateHz: Int = 16_000) -> [UInt8] {
        let bits = UInt16(bitPattern: value)
        return (0..<(rateHz * durationMs / 1_000)).flatMap { _ in [UInt8(bits & 0xFF), UInt8(bits >> 8)] }
    }

    /// A clip of `frameCount` 40 ms frames of PCM16 at 16 kHz, every sample `value`.
    static func clip(_ value: Int16, frameCount: Int) -> FrameSet {
        let utterance = PreparedUtterance(
            format: .pcm16(16_000),
            frameMs: 40,
            frames: Array(repeating: pcm(value, durationMs: 40), count: frameCount),
            boundaries: SpeechBoundaries(speechStartUs: 0, speechEndUs: Int64(frameCount) * 40_000),
            sourcePath: "test.wav"
        )
        return FrameSet(utterance: utterance, dialect: EchoDialect())
    }

    /// A turn whose speech began at `speechStartMs` and ended 80 ms later, answered
    /// `firstAudioMs` after (unanswered when nil).
    static func turn(_ number: Int, speechStartMs: Int64 = 100, firstAudioMs: Int64?, outcome: TurnOutcome = .completed) -> TurnRecord {
        var row = TurnRecord(
            client: 0,
            iteration: 0,
            turn: number,
            label: "ask",
            outcome: outcome,
            speechStartOffsetUs: 0,
            speechEndOffsetUs: 80_000,
            firstAudioFromEndUs: firstAudioMs.map { $0 * 1_000 }
        )
        row.speechStartAt = at(speechStartMs)
        return row
    }

    /// A call of client `client` from its connect at 0 to `durationMs`, with one turn answered
    /// `firstAudioMs` after its speech ended (none when nil).
    static func call(
        client: Int,
        firstAudioMs: Int64?,
        outcome: SessionOutcome = .completed,
        turnOutcome: TurnOutcome = .completed,
        durationMs: Int64 = 1_000
    ) -> FinishedCall {
        var recording = CallRecording(client: client, iteration: 0)
        recording.connectStarted(at: at(0))
        recording.turnEmitted(turn(1, firstAudioMs: firstAudioMs, outcome: turnOutcome))
        var session = SessionRecord(client: client, iteration: 0)
        session.outcome = outcome
        return recording.finished(session: session, endedAt: at(durationMs))!
    }
}
