import Foundation
import Testing

@testable import VoiceLoad

@Suite("SpeechDetector")
struct SpeechDetectorTests {
    private let detector = SpeechDetector()
    private static let windowUs: Int64 = 10_000

    private func signal(_ parts: [[Float]]) -> [Int16] {
        AudioFixtures.pcm16(parts.flatMap { $0 })
    }

    private func tone(_ durationMs: Int, amplitude: Double = 0.3, rateHz: Int = 16_000) -> [Float] {
        AudioFixtures.tone(frequencyHz: 440, amplitude: amplitude, durationMs: durationMs, rateHz: rateHz)
    }

    private func silence(_ durationMs: Int, rateHz: Int = 16_000) -> [Float] {
        AudioFixtures.silence(durationMs: durationMs, rateHz: rateHz)
    }

    @Test("a tone burst between silences is found within one window", arguments: [8_000, 16_000, 24_000, 48_000])
    func toneBurst(rateHz: Int) throws {
        let samples = signal([silence(503, rateHz: rateHz), tone(800, rateHz: rateHz), silence(397, rateHz: rateHz)])
        let found = try #require(detector.boundaries(of: samples, sampleRateHz: rateHz))
        #expect(abs(found.speechStartUs - 503_000) <= Self.windowUs, "start \(found.speechStartUs)")
        #expect(abs(found.speechEndUs - 1_303_000) <= Self.windowUs, "end \(found.speechEndUs)")
        // Start is the start of a window, so it never lags the burst.
        #expect(found.speechStartUs <= 503_000)
        #expect(found.speechEndUs >= 1_303_000)
    }

    @Test("all silence, and audio below the absolute floor, give nil")
    func silenceIsNil() {
        #expect(detector.boundaries(of: signal([silence(1_000)]), sampleRateHz: 16_000) == nil)
        // -60 dBFS peak: below the -50 dBFS floor even though it is the loudest window.
        #expect(detector.boundaries(of: signal([silence(200), tone(500, amplitude: 0.001)]), sampleRateHz: 16_000) == nil)
        #expect(detector.boundaries(of: [], sampleRateHz: 16_000) == nil)
    }

    @Test("short clicks at the edges are ignored")
    func clicksIgnored() throws {
        let click = [Float](repeating: 0.9, count: 32)  // 2 ms at 16 kHz
        let samples = signal([silence(100), click, silence(498), tone(800), silence(300), click, silence(200)])
        let found = try #require(detector.boundaries(of: samples, sampleRateHz: 16_000))
        #expect(abs(found.speechStartUs - 600_000) <= Self.windowUs, "start \(found.speechStartUs)")
        #expect(abs(found.speechEndUs - 1_400_000) <= Self.windowUs, "end \(found.speechEndUs)")
    }

    @Test("a clip holding only a click has no speech")
    func clickOnly() {
        let click = [Float](repeating: 0.9, count: 32)
        #expect(detector.boundaries(of: signal([silence(300), click, silence(300)]), sampleRateHz: 16_000) == nil)
    }

    @Test("pauses between words stay inside the span")
    func pausesInside() throws {
        let samples = signal([silence(200), tone(300), silence(250), tone(300), silence(200)])
        let found = try #require(detector.boundaries(of: samples, sampleRateHz: 16_000))
        #expect(abs(found.speechStartUs - 200_000) <= Self.windowUs)
        #expect(abs(found.speechEndUs - 1_050_000) <= Self.windowUs)
    }

    @Test("audio more than 30 dB below the loudest window is not speech")
    func relativeThreshold() throws {
        // The quiet tail is 40 dB below the loud part (RMS -44 dBFS, above the -50 dBFS floor).
        let samples = signal([silence(100), tone(500, amplitude: 0.9), tone(400, amplitude: 0.009), silence(100)])
        let found = try #require(detector.boundaries(of: samples, sampleRateHz: 16_000))
        #expect(abs(found.speechEndUs - 600_000) <= Self.windowUs, "end \(found.speechEndUs)")

        var lenient = detector
        lenient.rule.relativeThresholdDb = -50
        lenient.rule.absoluteFloorDbfs = -60
        let longer = try #require(lenient.boundaries(of: samples, sampleRateHz: 16_000))
        #expect(abs(longer.speechEndUs - 1_000_000) <= Self.windowUs, "end \(longer.speechEndUs)")
    }

    @Test("speech running to the last sample ends at the clip end")
    func speechToTheEnd() throws {
        let samples = signal([silence(100), tone(405)])
        let found = try #require(detector.boundaries(of: samples, sampleRateHz: 16_000))
        #expect(found.speechEndUs == 505_000)
    }

    @Test("SpeechBoundaries is Codable")
    func codable() throws {
        let boundaries = SpeechBoundaries(speechStartUs: 300_000, speechEndUs: 2_100_000)
        let data = try JSONEncoder().encode(boundaries)
        #expect(try JSONDecoder().decode(SpeechBoundaries.self, from: data) == boundaries)
        #expect(boundaries.speechDurationUs == 1_800_000)
    }
}
