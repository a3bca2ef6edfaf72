import Foundation
import Testing

@testable import VoiceLoad

/// Decode time per frame of the hot-path messages, printed, never asserted. Run by hand in a
/// release build: `VLOAD_BENCH=1 swift test -c release … --filter JSONDecodeBenchmark`.
@Suite("JSON decode benchmark (VLOAD_BENCH=1)", .enabled(if: ProcessInfo.processInfo.environment["VLOAD_BENCH"] != nil))
struct JSONDecodeBenchmark {
    /// An OpenAI audio delta of 20 ms of 24 kHz PCM16: 960 bytes, 1.3 KB of base64.
    static let audioDelta: String = {
        let audio = Data((0..<960).map { UInt8(truncatingIfNeeded: $0 &* 37) }).base64EncodedString()
        return
            #"{"type":"response.output_audio.delta","event_id":"event_B4x9","response_id":"resp_C0ffee1234","item_id":"item_C0ffee5678","output_index":0,"content_index":0,"delta":""#
            + audio + #""}"#
    }()

    static let deepgramResults = DeepgramResultsMessage(transcript: "Hello there, how can I help you today?").text(
        SpeechResult(text: "Hello there, how can I help you today?", isFinal: true, speechFinal: true, startS: 0.1, durationS: 3.52),
        requestID: "7b0e3c2a-1f00-4e2b-9d55-5a1b2c3d4e5f"
    )

    private static func measure(_ name: String, _ text: String, iterations: Int = 20_000) {
        var bestNs = UInt64.max
        var sink = 0
        for _ in 0..<7 {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations {
                if case .success(let message) = JSONFrame.typedObject(in: .text(text)) { sink &+= message.object.count }
            }
            bestNs = min(bestNs, DispatchTime.now().uptimeNanoseconds - start)
        }
        let perFrameUs = Double(bestNs) / Double(iterations) / 1_000
        print(
            "\(name) (\(text.utf8.count) bytes): \(String(format: "%.2f", perFrameUs)) µs per frame, best of 7 × \(iterations) [\(sink & 1)]"
        )
    }

    @Test func decodeTimePerFrame() {
        Self.measure("OpenAI audio delta", Self.audioDelta)
        Self.measure("Deepgram Results", Self.deepgramResults)
    }
}
