import Foundation
import Testing

@testable import VoiceLoad

@Suite("Noise mixed at an SNR, and gain")
struct NoiseMixerTests {
    private static let root = repositoryRoot()

    /// 10 × log10 of the speech span's clean power over the power of what the mix added there,
    /// computed from the samples here, apart from the mixer's own arithmetic.
    private static func measuredSNRDb(clean: AudioClip, mixed: AudioClip, speech: SpeechBoundaries) -> Double {
        let span = NoiseMixer.sampleRange(of: speech, in: clean)
        var signal = 0.0
        var noise = 0.0
        for index in span {
            let s = Double(clean.samples[index])
            let n = Double(mixed.samples[index]) - s
            signal += s * s
            noise += n * n
        }
        return 10 * log10(signal / noise)
    }

    @Test("each shipped bed on hello.wav at 0, 10 and 20 dB: the speech span's SNR within 0.05 dB", arguments: ["babble", "road", "pink"])
    func shippedBeds(bed: String) throws {
        let clean = try WAVReader.read(path: Self.root + "/scenarios/audio/hello.wav")
        let noise = try WAVReader.read(path: Self.root + "/scenarios/audio/noise/\(bed).wav")
        #expect(noise.sampleRateHz == clean.sampleRateHz && noise.durationUs == 8_000_000)
        let speech = try #require(SpeechDetector().boundaries(of: clean.samples, sampleRateHz: clean.sampleRateHz))
        for snrDb in [0.0, 10, 20] {
            let mixed = NoiseMixer.mix(clean, speech: speech, noise: noise, snrDb: snrDb, offsetSamples: 12_345)
            #expect(mixed.samples.count == clean.samples.count)
            let measured = Self.measuredSNRDb(clean: clean, mixed: mixed, speech: speech)
            #expect(abs(measured - snrDb) < 0.05, "\(bed) at \(snrDb) dB measured \(measured) dB")
        }
    }

    @Test("the bed wraps: a clip longer than the bed gets noise to its last sample, from the offset on")
    func wraps() {
        let clean = AudioClip(samples: [Int16](repeating: 1_000, count: 10), sampleRateHz: 8_000)
        let noise = AudioClip(samples: [1, 2, 3, 4], sampleRateHz: 8_000)
        let speech = SpeechBoundaries(speechStartUs: 0, speechEndUs: 1_250)  // all ten samples
        let mixed = NoiseMixer.mix(clean, speech: speech, noise: noise, snrDb: 0, offsetSamples: 6)
        // Starting at bed sample 6 mod 4 = 2: 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, scaled alike.
        let added = mixed.samples.map { Double($0) - 1_000 }
        #expect(added[0] / added[2] > 2.9 && added[0] / added[2] < 3.1)
        #expect(added[1] == added[5] && added[1] == added[9])
        #expect(added.allSatisfy { $0 > 0 })
    }

    @Test("no speech power or a silent bed adds nothing; the sum saturates at full scale")
    func edges() {
        let speech = SpeechBoundaries(speechStartUs: 0, speechEndUs: 1_000)
        let silent = AudioClip(samples: [Int16](repeating: 0, count: 8), sampleRateHz: 8_000)
        let bed = AudioClip(samples: [100, -100], sampleRateHz: 8_000)
        #expect(NoiseMixer.mix(silent, speech: speech, noise: bed, snrDb: 10, offsetSamples: 0) == silent)
        let loud = AudioClip(samples: [32_000, -32_000, 32_000, -32_000, 32_000, -32_000, 32_000, -32_000], sampleRateHz: 8_000)
        #expect(NoiseMixer.mix(loud, speech: speech, noise: AudioClip(samples: [0, 0], sampleRateHz: 8_000), snrDb: 10, offsetSamples: 0) == loud)
        let mixed = NoiseMixer.mix(loud, speech: speech, noise: bed, snrDb: -20, offsetSamples: 0)
        #expect(mixed.samples.first == 32_767 && mixed.samples[1] == -32_768)
    }

    @Test("gain: +6.02 dB doubles, −6.02 dB halves, 0 dB is the clip itself, and it saturates")
    func gain() {
        let clip = AudioClip(samples: [1_000, -2_000, 20_000, -20_000], sampleRateHz: 16_000)
        #expect(AudioGain.apply(0, to: clip) == clip)
        #expect(AudioGain.apply(20 * log10(2.0), to: clip).samples == [2_000, -4_000, 32_767, -32_768])
        #expect(AudioGain.apply(-20 * log10(2.0), to: clip).samples == [500, -1_000, 10_000, -10_000])
    }
}
