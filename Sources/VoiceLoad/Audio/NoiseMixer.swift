/// Background noise added to a clean clip at a signal-to-noise ratio (docs/callers.md).
///
/// The ratio is the clean clip's speech power over the noise's power, both over the clip's speech
/// span: `snr_db = 10 × log10(P_speech / P_noise)`. Measured over the speech span, not the whole
/// clip, so the silence around the speech does not dilute the voice and a quiet clip gets as much
/// noise relative to its speech as a loud one. The noise is a bed read from `offsetSamples`,
/// wrapping to its start when the clip is longer; the sum is rounded to the nearest sample and
/// saturates at full scale.
package enum NoiseMixer {
    /// `clean` with `noise` added so that the speech span's SNR is `snrDb`. `noise` must have
    /// `clean`'s sample rate and at least one sample; a span with no speech power (or a bed of
    /// silence) adds nothing.
    package static func mix(
        _ clean: AudioClip,
        speech: SpeechBoundaries,
        noise: AudioClip,
        snrDb: Double,
        offsetSamples: Int
    ) -> AudioClip {
        precondition(noise.sampleRateHz == clean.sampleRateHz, "the noise bed must be resampled to the clip's rate first")
        precondition(!noise.samples.isEmpty, "an empty noise bed")
        let span = sampleRange(of: speech, in: clean)
        let bedCount = noise.samples.count
        let start = ((offsetSamples % bedCount) + bedCount) % bedCount
        let speechPower = power(of: clean.samples, in: span) { $0 }
        let noisePower = power(of: noise.samples, in: span) { (start + $0) % bedCount }
        guard speechPower > 0, noisePower > 0 else { return clean }
        let scale = (speechPower / (noisePower * AudioLevel.powerRatio(db: snrDb))).squareRoot()
        var mixed = clean.samples
        noise.samples.withUnsafeBufferPointer { bed in
            var bedIndex = start
            for index in mixed.indices {
                mixed[index] = saturated(Double(mixed[index]) + scale * Double(bed[bedIndex]))
                bedIndex += 1
                if bedIndex == bedCount { bedIndex = 0 }
            }
        }
        return AudioClip(samples: mixed, sampleRateHz: clean.sampleRateHz)
    }

    /// The samples of `clip` that `speech` spans (the whole clip when the span is empty).
    static func sampleRange(of speech: SpeechBoundaries, in clip: AudioClip) -> Range<Int> {
        let rate = Int64(clip.sampleRateHz)
        let first = Int(max(0, speech.speechStartUs) * rate / 1_000_000)
        let last = Int(max(0, speech.speechEndUs) * rate / 1_000_000)
        let range = min(first, clip.samples.count)..<min(last, clip.samples.count)
        return range.isEmpty ? 0..<clip.samples.count : range
    }

    /// The mean square of `samples[position(i)]` for `i` in `range`.
    private static func power(of samples: [Int16], in range: Range<Int>, position: (Int) -> Int) -> Double {
        guard !range.isEmpty else { return 0 }
        var sum = 0.0
        for index in range {
            let sample = Double(samples[position(index)])
            sum += sample * sample
        }
        return sum / Double(range.count)
    }

    /// `value` rounded to the nearest sample, held within PCM16's range.
    static func saturated(_ value: Double) -> Int16 {
        Int16(min(max(value.rounded(), -32_768), 32_767))
    }
}
