import Foundation
import Testing
import WSCore

@testable import VoiceLoad

/// The shipped Gemini Live dialect file ends the answer where the whole answer ends: a model
/// turn's `turnComplete` while `interactionStatus` is `IN_PROGRESS` is not the end; the one that
/// leaves the interaction idle is (docs/dialects.md). A call attempt with the file's own codec,
/// on synthetic time.
@Suite("Gemini Live: an answer of several model turns ends when the interaction is idle")
struct GeminiLiveTurnEndTests {
    typealias Script = AttemptScript

    /// 40 ms of a tone at 24 kHz in a model turn, as the server sends it (JSON in a binary frame).
    static let audio: WireFrame = {
        let data = Data(DialectTestSupport.tone(sampleCount: 960, rateHz: 24_000)).base64EncodedString()
        return .binary(Array(#"{"serverContent":{"modelTurn":{"parts":[{"inlineData":{"mimeType":"audio/pcm;rate=24000","data":"\#(data)"}}]}}}"#.utf8))
    }()

    static func complete(_ status: String) -> WireFrame {
        .binary(Array(#"{"serverContent":{"turnComplete":true,"interactionStatus":"\#(status)"}}"#.utf8))
    }

    @Test("the first model turn's turnComplete (IN_PROGRESS) leaves the answer open; IDLE ends it")
    func severalModelTurnsAreOneAnswer() throws {
        let path = try #require(DialectSearchPath.standard(environment: [:], executablePath: nil).locate("gemini-live"))
        let dialect = try CustomDialect.load(path: path, environment: [:])
        var attempt = CallAttempt(codec: dialect.makeCodec(parameters: [:]), tracker: TurnTracker.Configuration(), client: 0, iteration: 0)
        _ = attempt.connectionOpened(at: Script.at(0), now: Script.at(0))
        _ = attempt.markReady(at: Script.at(0))
        _ = attempt.utteranceStarted(label: "ask", micOpenAt: Script.at(0), speechStartUs: 1_000_000, speechEndUs: 1_400_000)
        var frames: [(WireFrame, Int64)] = [(Self.audio, 2_000), (Self.audio, 2_040), (Self.complete("IN_PROGRESS"), 2_080)]
        frames += [(Self.audio, 2_600), (Self.audio, 2_640), (Self.complete("IDLE"), 2_700)]
        var rows: [(TurnRecord, Int64)] = []
        for (frame, ms) in frames {
            for case .emit(let row) in attempt.frameArrived(frame, at: Script.at(ms), now: Script.at(ms)) { rows.append((row, ms)) }
        }
        let (row, endedAtMs) = try #require(rows.first)
        #expect(rows.count == 1 && endedAtMs == 2_700)
        #expect(row.outcome == .completed && row.turnEndBy == .event)
        #expect(row.firstAudioFromEndUs == 600_000 && row.turnDurationUs == 700_000)
    }
}
