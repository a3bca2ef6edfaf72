import Testing

@testable import VoiceLoad

@Suite("Resampler")
struct ResamplerTests {
    /// A 1 s, 1 kHz tone at `rateHz`, resampled to `toRateHz`.
    private func resampledTone(fromRateHz: Int, toRateHz: Int) throws -> AudioClip {
        let tone = AudioFixtures.tone(frequencyHz: 1_000, amplitude: 0.5, durationMs: 1_000, rateHz: fromRateHz)
        let clip = AudioClip(samples: AudioFixtures.pcm16(tone), sampleRateHz: fromRateHz)
        return try Resampler.resample(clip, toRateHz: toRateHz)
    }

    @Test("a 1 kHz tone keeps its frequency, level and duration", arguments: [(48_000, 16_000), (8_000, 24_000)])
    func keepsFrequencyAndDuration(fromRateHz: Int, toRateHz: Int) throws {
        let output = try resampledTone(fromRateHz: fromRateHz, toRateHz: toRateHz)

        #expect(output.sampleRateHz == toRateHz)
        #expect(output.samples.count == toRateHz)
        #expect(abs(output.durationMs - 1_000) < 0.001)

        // 1 kHz for 1 s crosses zero about 2000 times.
        let crossings = AudioFixtures.zeroCrossings(output.samples)
        #expect(abs(crossings - 2_000) <= 4, "zero crossings: \(crossings)")

        let atTone = AudioFixtures.goertzelPower(output.samples, frequencyHz: 1_000, rateHz: toRateHz)
        let offTone = AudioFixtures.goertzelPower(output.samples, frequencyHz: 1_500, rateHz: toRateHz)
        #expect(atTone > 1_000 * offTone, "power at 1 kHz \(atTone), at 1.5 kHz \(offTone)")

        // Level is kept away from the filter's start-up and tail.
        let middle = output.samples[toRateHz / 10..<(toRateHz * 9 / 10)]
        let expectedRMS = 0.5 / 2.0.squareRoot()
        #expect(abs(AudioFixtures.rms(middle) - expectedRMS) / expectedRMS < 0.02)
    }

    @Test("content above the new Nyquist frequency is filtered out, not aliased")
    func bandLimits() throws {
        let tone = AudioFixtures.tone(frequencyHz: 6_000, amplitude: 0.5, durationMs: 500, rateHz: 16_000)
        let clip = AudioClip(samples: AudioFixtures.pcm16(tone), sampleRateHz: 16_000)
        let output = try Resampler.resample(clip, toRateHz: 8_000)
        #expect(output.samples.count == 4_000)
        let middle = output.samples[400..<3_600]
        // Naive decimation would alias 6 kHz to 2 kHz at full level (RMS 0.35).
        #expect(AudioFixtures.rms(middle) < 0.005, "residual RMS \(AudioFixtures.rms(middle))")
    }

    @Test("output length is the floor of count × ratio, for non-integer ratios too")
    func outputLength() throws {
        let cases: [(count: Int, fromHz: Int, toHz: Int, expected: Int)] = [
            (16_001, 16_000, 8_000, 8_000), (44_100, 44_100, 16_000, 16_000),
            (44_223, 44_100, 16_000, 16_044), (22_050, 22_050, 24_000, 24_000),
        ]
        for entry in cases {
            let tone = AudioFixtures.tone(
                frequencyHz: 440,
                amplitude: 0.5,
                durationMs: entry.count * 1_000 / entry.fromHz + 1,
                rateHz: entry.fromHz
            )
            let clip = AudioClip(samples: Array(AudioFixtures.pcm16(tone).prefix(entry.count)), sampleRateHz: entry.fromHz)
            #expect(clip.samples.count == entry.count)
            let output = try Resampler.resample(clip, toRateHz: entry.toHz)
            #expect(output.samples.count == entry.expected, "\(entry.fromHz) → \(entry.toHz)")
            // The tail is not zero padding: the last 10 ms still carry the tone.
            #expect(AudioFixtures.rms(output.samples.suffix(entry.toHz / 100)) > 0.2)
        }
    }

    @Test("matching rates return the clip unchanged")
    func identity() throws {
        let clip = AudioClip(samples: [1, -2, 3, -4, 5], sampleRateHz: 16_000)
        #expect(try Resampler.resample(clip, toRateHz: 16_000) == clip)
    }

    @Test("an empty clip stays empty at the new rate")
    func emptyClip() throws {
        let output = try Resampler.resample(AudioClip(samples: [], sampleRateHz: 16_000), toRateHz: 8_000)
        #expect(output == AudioClip(samples: [], sampleRateHz: 8_000))
    }

    @Test("unsupported rates throw")
    func unsupportedRates() {
        let clip = AudioClip(samples: [0, 0, 0], sampleRateHz: 16_000)
        #expect(throws: ResampleError.unsupportedRates(fromHz: 16_000, toHz: 0)) {
            try Resampler.resample(clip, toRateHz: 0)
        }
        #expect(throws: ResampleError.unsupportedRates(fromHz: 16_000, toHz: 16)) {
            try Resampler.resample(clip, toRateHz: 16)
        }
    }
}
