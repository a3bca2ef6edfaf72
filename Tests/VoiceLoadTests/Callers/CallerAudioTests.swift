import Foundation
import Testing

@testable import VoiceLoad

@Suite("Callers' audio, prepared before the run")
struct CallerAudioTests {
    private static let say = SayStep(audioPath: repositoryRoot() + "/scenarios/audio/arrival.wav")

    /// `variation` (its beds found in scenarios/) prepared for datagrid (PCM16 at 16 kHz) in 40 ms frames.
    private func prepared(_ variation: CallerVariation, dialect: any ClientDialect = DatagridClientDialect()) throws -> CallerAudio {
        var variation = variation
        try variation.setNoise(
            beds: variation.noiseBeds.isEmpty ? ["none"] : variation.noiseBeds,
            relativeTo: repositoryRoot() + "/scenarios"
        )
        return try CallerAudio.prepare(variation: variation, says: [Self.say], dialect: dialect, frameMs: 40)
    }

    private func utterance(_ audio: CallerAudio, caller: Int = 0, seed: UInt64 = 1) throws -> PreparedUtterance {
        let voice = audio.variation.voice(ofCaller: caller, seed: seed)
        return try #require(audio.frameSets(for: voice)[Self.say.audioKey]).utterance
    }

    @Test("one clean stretch per rate the range can draw; the beds' length bounds the offsets")
    func stretches() throws {
        let audio = try prepared(CallerVariation(noiseBeds: ["pink"], snrDb: 10...10, speakingRate: 0.9...0.95))
        #expect(audio.stretchCount == 6)
        #expect(CallerAudio.rateKeys(0.8...1.2) == 80...120)
        #expect(audio.variation.bedDurationMs == 8_000)
        // Six stretches of 1.83 s (÷ 0.9 to ÷ 0.95: 31,000-32,600 samples each) and the 8 s bed
        // (128,000 samples), 2 bytes a sample.
        #expect((600_000...680_000).contains(audio.preparedBytes), "\(audio.preparedBytes)")
    }

    @Test("the end of speech moves with the stretch: at 0.8 it is 1.25 times as far into the clip, at 1.2 0.83 times")
    func endMovesWithStretch() throws {
        let clean = try utterance(prepared(CallerVariation(speakingRate: 1...1)))
        for rate in [0.8, 1.2] {
            let stretched = try utterance(prepared(CallerVariation(speakingRate: rate...rate)))
            let expectedUs = Double(clean.boundaries.speechEndUs) / rate
            // The detector's 10 ms windows, and Rubber Band's phase vocoder smearing the last sound.
            #expect(
                abs(Double(stretched.boundaries.speechEndUs) - expectedUs) <= 20_000,
                "rate \(rate): \(stretched.boundaries) vs \(expectedUs) µs"
            )
            #expect(abs(Double(stretched.boundaries.speechStartUs) - Double(clean.boundaries.speechStartUs) / rate) <= 20_000)
            #expect(abs(stretched.durationMs - Int(Double(clean.durationMs) / rate)) <= 40)
        }
    }

    @Test("noise at 10 dB: the truth stays the clean stretch's although the mix looks voiced to its end; the SNR over the speech is 10 dB")
    func truthUnderNoise() throws {
        let noisy = try prepared(CallerVariation(noiseBeds: ["babble", "road", "pink"], snrDb: 10...10, speakingRate: 1.2...1.2))
        let clean = try utterance(prepared(CallerVariation(speakingRate: 1.2...1.2)))
        for caller in 0..<6 {
            let mixed = try utterance(noisy, caller: caller)
            #expect(mixed.boundaries == clean.boundaries)
            let sent = AudioEncoder.decode(mixed.frames.flatMap { $0 }, format: mixed.format)
            let cleanSamples = AudioEncoder.decode(clean.frames.flatMap { $0 }, format: clean.format)
            // A detector on the mix finds the noise, which runs to the end of the clip.
            let looks = try #require(SpeechDetector().boundaries(of: sent, sampleRateHz: 16_000))
            #expect(looks.speechEndUs > clean.boundaries.speechEndUs + 100_000, "\(looks) vs \(clean.boundaries)")
            // The noise is the mix less the clean clip; over the clean speech span, 10 dB below it.
            let span = NoiseMixer.sampleRange(of: clean.boundaries, in: AudioClip(samples: cleanSamples, sampleRateHz: 16_000))
            let noise = zip(sent[span], cleanSamples[span]).map { Int16(clamping: Int($0) - Int($1)) }
            let snrDb = 20 * log10(AudioLevel.rms(of: cleanSamples[span]) / AudioLevel.rms(of: noise[...]))
            #expect(abs(snrDb - 10) <= 0.05, "caller \(caller): \(snrDb) dB")
        }
    }

    @Test("the same seed and caller give the same bytes; another caller other bytes; µ-law callers too")
    func reproducible() throws {
        let variation = CallerVariation(noiseBeds: ["road"], snrDb: 5...20, gainDb: -6...6, speakingRate: 1...1.02)
        let audio = try prepared(variation)
        #expect(try utterance(audio, caller: 4, seed: 7).frames == utterance(prepared(variation), caller: 4, seed: 7).frames)
        #expect(try utterance(audio, caller: 4, seed: 7).frames != utterance(audio, caller: 5, seed: 7).frames)
        let twilio = try prepared(variation, dialect: DialectRegistry.client("twilio-media-streams"))
        let mulaw = try utterance(twilio, caller: 4, seed: 7)
        #expect(try mulaw.format == .mulaw8k && mulaw.frames.count == utterance(audio, caller: 4, seed: 7).frames.count)
        #expect(mulaw.frames.allSatisfy { $0.count == 320 })
    }

    @Test("a missing bed names its file")
    func missingBed() {
        var variation = CallerVariation(noiseBeds: ["street"], snrDb: 10...10)
        variation.bedPaths = ["street": "/nonexistent/street.wav"]
        #expect {
            try CallerAudio.prepare(variation: variation, says: [Self.say], dialect: DatagridClientDialect(), frameMs: 40)
        } throws: { error in
            "\(error)".contains("/nonexistent/street.wav")
        }
    }
}
