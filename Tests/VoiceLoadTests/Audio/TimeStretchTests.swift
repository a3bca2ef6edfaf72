import Foundation
import Testing

@testable import VoiceLoad

@Suite("Speaking rate through Rubber Band")
struct TimeStretchTests {
    private static let helloPath = repositoryRoot() + "/scenarios/audio/hello.wav"

    @Test("hello.wav at 0.8, 0.9, 1.1 and 1.2: ⌊count ÷ rate⌋ samples, speech ends where the rate moves it (within 30 ms), and the same every time", arguments: [0.8, 0.9, 1.1, 1.2])
    func stretchesSpeech(rate: Double) throws {
        let clip = try WAVReader.read(path: Self.helloPath)
        let detector = SpeechDetector()
        let original = try #require(detector.boundaries(of: clip.samples, sampleRateHz: clip.sampleRateHz))
        let stretched = TimeStretch.stretch(clip, rate: rate)
        #expect(stretched.sampleRateHz == clip.sampleRateHz)
        #expect(stretched.samples.count == Int(Double(clip.samples.count) / rate))
        let found = try #require(detector.boundaries(of: stretched.samples, sampleRateHz: stretched.sampleRateHz))
        let expectedStartUs = Double(original.speechStartUs) / rate
        let expectedEndUs = Double(original.speechEndUs) / rate
        #expect(abs(Double(found.speechStartUs) - expectedStartUs) <= 30_000, "start \(found.speechStartUs) µs, expected \(expectedStartUs)")
        #expect(abs(Double(found.speechEndUs) - expectedEndUs) <= 30_000, "end \(found.speechEndUs) µs, expected \(expectedEndUs)")
        // The speech keeps its level (within 1 dB over its span), and the stretch is deterministic.
        let levelBefore = AudioLevel.rms(of: clip.samples[NoiseMixer.sampleRange(of: original, in: clip)])
        let levelAfter = AudioLevel.rms(of: stretched.samples[NoiseMixer.sampleRange(of: found, in: stretched)])
        #expect(abs(20 * log10(levelAfter / levelBefore)) < 1, "level \(levelBefore) → \(levelAfter)")
        #expect(TimeStretch.stretch(clip, rate: rate) == stretched)
    }

    @Test("rate 1 and an empty clip come back unchanged")
    func identity() throws {
        let clip = try WAVReader.read(path: Self.helloPath)
        #expect(TimeStretch.stretch(clip, rate: 1) == clip)
        let empty = AudioClip(samples: [], sampleRateHz: 16_000)
        #expect(TimeStretch.stretch(empty, rate: 1.2) == empty)
    }
}
