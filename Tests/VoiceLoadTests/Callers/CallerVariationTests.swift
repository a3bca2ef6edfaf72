import Testing

@testable import VoiceLoad

@Suite("Callers' voices drawn with the run's seed")
struct CallerVariationTests {
    private let variation = CallerVariation(
        noiseBeds: ["babble", "road", "pink"],
        snrDb: 5...20,
        gainDb: -6...6,
        speakingRate: 0.8...1.2
    )

    @Test("the same seed and caller give the same voice, whatever order callers are drawn in")
    func reproducible() {
        let forward = (0..<50).map { variation.voice(ofCaller: $0, seed: 42) }
        let backward = (0..<50).reversed().map { variation.voice(ofCaller: $0, seed: 42) }
        #expect(forward == Array(backward.reversed()))
        #expect(variation.voice(ofCaller: 7, seed: 43) != forward[7])
    }

    @Test("draws stay in their ranges, rounded to 0.01, and spread over them and over every bed")
    func ranges() throws {
        let voices = (0..<300).map { variation.voice(ofCaller: $0, seed: 7) }
        let noises = voices.compactMap(\.noise)
        #expect(noises.count == voices.count)
        #expect(Set(noises.map(\.bed)) == ["babble", "road", "pink"])
        #expect(noises.allSatisfy { (5...20).contains($0.snrDb) && (0..<8_000).contains($0.offsetMs) })
        #expect(voices.allSatisfy { (-6...6).contains($0.gainDb) && (0.8...1.2).contains($0.speakingRate) })
        #expect(voices.allSatisfy { ($0.speakingRate * 100).rounded() / 100 == $0.speakingRate })
        let rates = voices.map(\.speakingRate)
        #expect(try #require(rates.min()) < 0.85 && rates.max()! > 1.15)
    }

    @Test("no beds: no noise; single-value ranges give that value to every caller")
    func fixed() {
        let plain = CallerVariation(snrDb: 10...10, gainDb: 3...3, speakingRate: 1.1...1.1)
        for caller in 0..<10 {
            #expect(plain.voice(ofCaller: caller, seed: 1) == CallerVoice(noise: nil, gainDb: 3, speakingRate: 1.1))
        }
    }

    @Test("a voice applied to hello.wav: stretched, its speech found in the clean stretch, noise at the SNR over it, gain on the whole")
    func applied() throws {
        let clip = try WAVReader.read(path: repositoryRoot() + "/scenarios/audio/hello.wav")
        let bed = try WAVReader.read(path: repositoryRoot() + "/scenarios/audio/noise/road.wav")
        let voice = CallerVoice(noise: .init(bed: "road", snrDb: 10, offsetMs: 500), gainDb: 0, speakingRate: 1.2)
        let (noisy, speech) = voice.apply(to: clip, bed: bed)
        let clean = TimeStretch.stretch(clip, rate: 1.2)
        #expect(noisy.samples.count == clean.samples.count)
        #expect(speech == SpeechDetector().boundaries(of: clean.samples, sampleRateHz: clean.sampleRateHz))
        let softer = CallerVoice(noise: voice.noise, gainDb: -6, speakingRate: 1.2).apply(to: clip, bed: bed).clip
        let span = NoiseMixer.sampleRange(of: try #require(speech), in: clean)
        // −6 dB (no sample reaches full scale, so nothing saturates): 10^(−6 ÷ 20) = 0.501 of the level.
        let ratio = AudioLevel.rms(of: softer.samples[span]) / AudioLevel.rms(of: noisy.samples[span])
        #expect(abs(ratio - 0.501) < 0.002)
    }
}
