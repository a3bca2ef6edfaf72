import Foundation
import Testing
import WSCore

@testable import VoiceLoad

/// The shipped ElevenLabs Agents dialect file ends a turn at `agent_response_complete`, with the
/// quiet gap as the fallback (docs/dialects.md), and each row says which ended it. A call
/// attempt with the file's own codec, on synthetic time.
@Suite("ElevenLabs Agents: agent_response_complete ends the turn, the quiet gap is the fallback")
struct ElevenLabsTurnEndTests {
    typealias Script = AttemptScript

    /// 100 ms of a tone, `pcm_16000`, as one `audio` message.
    static let audio: WireFrame = {
        let pcm = DialectTestSupport.tone(sampleCount: 1_600, rateHz: 16_000)
        return .text(#"{"type":"audio","audio_event":{"audio_base_64":"\#(Data(pcm).base64EncodedString())","event_id":1}}"#)
    }()
    static let complete = WireFrame.text(#"{"type":"agent_response_complete"}"#)

    /// An attempt on the shipped file, ready, with an utterance whose speech ends at 1400 ms.
    static func attempt() throws -> CallAttempt {
        let dialect = try ShippedDialectFileTests.load("elevenlabs-agents")
        var configuration = TurnTracker.Configuration()
        configuration.turnEndSignal = dialect.turnEndSignal
        configuration.quietMs = 500
        var attempt = CallAttempt(
            codec: dialect.makeCodec(parameters: [:]),
            tracker: configuration,
            client: 0,
            iteration: 0,
            turnEndSignal: dialect.turnEndSignal
        )
        _ = attempt.connectionOpened(at: Script.at(0), now: Script.at(0))
        _ = attempt.markReady(at: Script.at(0))
        _ = attempt.utteranceStarted(label: "ask", micOpenAt: Script.at(0), speechStartUs: 1_000_000, speechEndUs: 1_400_000)
        return attempt
    }

    static func rows(_ actions: [CallAttempt.Action]) -> [TurnRecord] {
        actions.compactMap { if case .emit(let row) = $0 { row } else { nil } }
    }

    /// Five 100 ms chunks in real time from 2000 ms: the last arrives at 2400, plays out at 2500.
    static func speak(_ attempt: inout CallAttempt) -> [CallAttempt.Action] {
        (0..<5).flatMap { index -> [CallAttempt.Action] in
            let ms = 2_000 + 100 * Int64(index)
            return attempt.frameArrived(audio, at: Script.at(ms), now: Script.at(ms))
        }
    }

    @Test("a turn ended by agent_response_complete ends when it arrives, not after the quiet gap")
    func endsAtTheEvent() throws {
        var attempt = try Self.attempt()
        let quietCheck = Self.speak(&attempt).compactMap { action -> MonotonicInstant? in
            if case .schedule(.quietCheck, let at) = action { return at }
            return nil
        }
        // The fallback is armed: the quiet check is set from the first chunk on.
        #expect(quietCheck.first == Script.at(2_500))
        let ended = Self.rows(attempt.frameArrived(Self.complete, at: Script.at(2_450), now: Script.at(2_450)))
        let row = try #require(ended.first)
        #expect(ended.count == 1 && row.outcome == .completed)
        #expect(row.turnEndBy == .event)
        #expect(row.firstAudioFromEndUs == 600_000 && row.turnDurationUs == 450_000)
        // The quiet check that follows finds no turn open.
        #expect(Self.rows(attempt.timerFired(.quietCheck, at: Script.at(2_900))).isEmpty)
    }

    @Test("without agent_response_complete the quiet gap ends the turn at its last audio")
    func quietGapFallback() throws {
        var attempt = try Self.attempt()
        _ = Self.speak(&attempt)
        #expect(Self.rows(attempt.timerFired(.quietCheck, at: Script.at(2_800))).isEmpty)  // not played out and quiet yet
        let ended = Self.rows(attempt.timerFired(.quietCheck, at: Script.at(2_900)))
        let row = try #require(ended.first)
        #expect(row.turnEndBy == .quietGap)
        #expect(row.firstAudioFromEndUs == 600_000 && row.turnDurationUs == 400_000)
        // A late event names no open turn.
        #expect(Self.rows(attempt.frameArrived(Self.complete, at: Script.at(3_000), now: Script.at(3_000))).isEmpty)
    }
}
