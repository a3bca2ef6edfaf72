import Testing

@testable import VoiceLoad

@Suite("Audio level: the one loudness routine")
struct AudioLevelTests {
    /// A square wave of ±`amplitude`: its RMS is exactly `amplitude`.
    private func square(_ amplitude: Int16, count: Int = 160) -> [Int16] {
        (0..<count).map { $0.isMultiple(of: 2) ? amplitude : -amplitude }
    }

    @Test("dBFS and levels: −40 dBFS is 0.01, 0 dBFS is full scale, −6 dBFS about half")
    func decibels() {
        #expect(AudioLevel.amplitude(dbfs: -40) == 0.01)
        #expect(AudioLevel.amplitude(dbfs: 0) == 1)
        #expect(abs(AudioLevel.amplitude(dbfs: -6) - 0.501) < 0.001)
    }

    @Test("PCM samples and PCM16 bytes give the same exact level; silence and nothing give 0")
    func pcm() {
        let samples = square(3_277)
        #expect(AudioLevel.rms(of: samples[...]) == 3_277.0 / 32_768)
        let bytes = AudioEncoder.encode(samples, as: AudioFormat(encoding: .pcm16, sampleRateHz: 16_000))
        #expect(
            Double(AudioLevel.rms(of: bytes, format: AudioFormat(encoding: .pcm16, sampleRateHz: 16_000)))
                == Double(Float(3_277.0 / 32_768))
        )
        #expect(AudioLevel.rms(of: [Int16](repeating: 0, count: 10)[...]) == 0)
        #expect(AudioLevel.rms(of: [Int16]()[...]) == 0)
        #expect(AudioLevel.level(sumOfSquares: 0, count: 0) == 0)
    }

    @Test("a sum over part of a frame counts only those samples, in every encoding")
    func partialSums() {
        let samples: [Int16] = [100, -200, 300, -400]
        let pcm = AudioEncoder.encode(samples, as: AudioFormat(encoding: .pcm16, sampleRateHz: 16_000))
        let sum = pcm.withUnsafeBufferPointer { AudioLevel.sumOfSquares($0, from: 1, count: 2, encoding: .pcm16) }
        #expect(sum == 200 * 200 + 300 * 300)
        for format in [AudioFormat.mulaw8k, .alaw8k] {
            let encoded = AudioEncoder.encode(samples, as: format)
            let decode = format.encoding == .mulaw ? MuLaw.decode : ALaw.decode
            let expected = encoded[1...2].map { Int64(decode($0)) * Int64(decode($0)) }.reduce(0, +)
            #expect(
                encoded.withUnsafeBufferPointer { AudioLevel.sumOfSquares($0, from: 1, count: 2, encoding: format.encoding) } == expected
            )
        }
    }

    @Test("the agent's voiced threshold is in dBFS: −40 dBFS voices a chunk at level 0.01, not one below")
    func turnTrackerThreshold() {
        var configuration = TurnTracker.Configuration()
        #expect(configuration.voicedThresholdDbfs == -40)
        #expect(configuration.voicedLevel == 0.01)
        configuration.voicedThresholdDbfs = -20
        #expect(configuration.voicedLevel == Float(0.1))
    }
}
