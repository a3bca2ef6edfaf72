import Foundation
import Testing
import WSCore

@testable import VoiceLoad

/// Deepgram Voice Agent asides (docs/dialects.md): an assistant `ConversationText` whose
/// `conversational_behavior` is `backchannel`, `filler` or `presence_check` is not the answer.
/// Its audio, `AgentStartedSpeaking`, `AgentAudioDone` and the `LatencyReport` after it start,
/// time and end no turn. A call attempt with the dialect's own codec, on synthetic time.
@Suite("Deepgram Voice Agent: a backchannel is not the answer")
struct DeepgramAgentAsideTests {
    typealias Script = AttemptScript

    /// 40 ms of a tone at 24 kHz PCM16: voiced agent audio.
    static let chunk = DialectTestSupport.tone(sampleCount: 960, rateHz: 24_000)

    static func text(_ object: [String: JSONValue]) -> WireFrame {
        .text(JSONFrame.text(object))
    }

    static func line(_ content: String, behavior: String?) -> WireFrame {
        var object: [String: JSONValue] = ["type": "ConversationText", "role": "assistant", "content": .string(content)]
        if let behavior { object["conversational_behavior"] = .string(behavior) }
        return text(object)
    }

    static let started = text(["type": "AgentStartedSpeaking", "total_latency": 0.25, "tts_latency": 0.1, "ttt_latency": 0.15])
    static let audioDone = text(["type": "AgentAudioDone"])
    static let latencyReport = text(["type": "LatencyReport", "total_latency": 0.25, "tts_latency": 0.1])

    /// One spoken line: its text, `AgentStartedSpeaking`, `count` chunks 40 ms apart from
    /// `audioFrom`, `AgentAudioDone` and the `LatencyReport`; every frame with its arrival.
    static func spoken(_ content: String, behavior: String?, lineAt: Int64, audioFrom: Int64, count: Int) -> [(WireFrame, Int64)] {
        var frames: [(WireFrame, Int64)] = [(line(content, behavior: behavior), lineAt), (started, lineAt + 5)]
        for index in 0..<count { frames.append((.binary(chunk), audioFrom + 40 * Int64(index))) }
        let end = audioFrom + 40 * Int64(count)
        return frames + [(audioDone, end), (latencyReport, end + 5)]
    }

    /// The attempt's turn rows and server latencies after `frames`, for an utterance whose
    /// speech lies at 1000…1400 ms.
    static func play(_ frames: [(WireFrame, Int64)]) throws -> (rows: [TurnRecord], latencies: [Int64]) {
        var attempt = CallAttempt(
            codec: try DialectRegistry.client("deepgram-agent").makeCodec(parameters: [:]),
            tracker: TurnTracker.Configuration(),
            client: 0,
            iteration: 0
        )
        _ = attempt.connectionOpened(at: Script.at(0), now: Script.at(0))
        _ = attempt.markReady(at: Script.at(0))
        _ = attempt.utteranceStarted(label: "ask", micOpenAt: Script.at(0), speechStartUs: 1_000_000, speechEndUs: 1_400_000)
        var actions: [CallAttempt.Action] = []
        for (frame, ms) in frames { actions += attempt.frameArrived(frame, at: Script.at(ms), now: Script.at(ms)) }
        let rows = actions.compactMap { action -> TurnRecord? in
            if case .emit(let row) = action { return row }
            return nil
        }
        let latencies = actions.compactMap { action -> Int64? in
            if case .record(.metric(.serverTotalLatencyMs, let microseconds)) = action { return microseconds }
            return nil
        }
        return (rows, latencies)
    }

    /// The answer: its line at 2000 ms, audio 2100…2300 ms, `AgentAudioDone` at 2300 ms.
    static let answer = spoken("Your order ships today.", behavior: "default", lineAt: 2_000, audioFrom: 2_100, count: 5)

    @Test("a backchannel before the answer leaves first audio and the turn's end unchanged", arguments: ["backchannel", "filler", "presence_check"])
    func asideBeforeTheAnswer(behavior: String) throws {
        let alone = try Self.play(Self.answer)
        let aside = Self.spoken("Mm-hmm.", behavior: behavior, lineAt: 1_200, audioFrom: 1_250, count: 3)
        let withAside = try Self.play(aside + Self.answer)
        let row = try #require(withAside.rows.first)
        #expect(withAside.rows.count == 1 && alone.rows.count == 1)
        #expect(row.outcome == .completed)
        #expect(row.firstAudioFromEndUs == 700_000 && row.firstAudioFromEndUs == alone.rows.first?.firstAudioFromEndUs)
        #expect(row.turnDurationUs == 200_000 && row.turnDurationUs == alone.rows.first?.turnDurationUs)
        // The aside's latencies are not the answer's.
        #expect(withAside.latencies == alone.latencies && alone.latencies == [250_000])
    }

    @Test("a line without conversational_behavior (older servers), or default, is the answer")
    func defaultLineIsTheAnswer() throws {
        let early = Self.spoken("Sure.", behavior: nil, lineAt: 1_500, audioFrom: 1_600, count: 3)
        let row = try #require(try Self.play(early).rows.first)
        #expect(row.firstAudioFromEndUs == 200_000 && row.turnDurationUs == 120_000)
    }
}
