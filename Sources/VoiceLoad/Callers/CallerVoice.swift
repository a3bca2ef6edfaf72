/// How one caller sounds, as a run's `CallerVariation` drew it for them (docs/callers.md): the
/// noise around them, how loud and how fast they speak. The same seed and caller index give the
/// same voice, whichever order the callers arrive in.
package struct CallerVoice: Sendable, Hashable, Codable {
    /// The background: a noise bed mixed at a signal-to-noise ratio, or none.
    package struct Noise: Sendable, Hashable, Codable {
        /// The bed's name (`babble`, `road`, `pink`, or a file's name without `.wav`).
        package var bed: String
        /// The speech span's signal-to-noise ratio (`NoiseMixer`).
        package var snrDb: Double
        /// Where in the bed this caller's noise starts, so that callers on one bed differ.
        package var offsetMs: Int
    }

    package var noise: Noise?
    /// Gain on the caller's audio, noise included (`AudioGain`).
    package var gainDb: Double
    /// The speaking rate: 1.2 speaks 20 % faster (`TimeStretch`).
    package var speakingRate: Double

    /// A caller as the clip is: no noise, no gain, the clip's own pace.
    package static let unchanged = CallerVoice(noise: nil, gainDb: 0, speakingRate: 1)

    package init(noise: Noise?, gainDb: Double, speakingRate: Double) {
        self.noise = noise
        self.gainDb = gainDb
        self.speakingRate = speakingRate
    }

    /// `clip` as this caller speaks it, and where its speech now lies: stretched to the speaking
    /// rate, its speech span found in the stretched clean clip (the truth every latency is
    /// measured from, wherever the noisy mix looks silent), the noise mixed in at the SNR over
    /// that span, and the gain applied to the whole. `bed` is the noise's audio at the clip's
    /// rate (nil when the voice has no noise); `detector` finds the speech span.
    package func apply(
        to clip: AudioClip,
        bed: AudioClip?,
        detector: SpeechDetector = SpeechDetector()
    ) -> (clip: AudioClip, speech: SpeechBoundaries?) {
        let stretched = TimeStretch.stretch(clip, rate: speakingRate)
        let speech = detector.boundaries(of: stretched.samples, sampleRateHz: stretched.sampleRateHz)
        return (voiced(stretched, speech: speech, bed: bed), speech)
    }

    /// `stretched` (the clip already at this voice's rate) with the noise mixed in at the SNR
    /// over `speech`, its span in the clean stretch, and the gain applied to the whole. `bed`
    /// is the noise's audio at the clip's rate (nil: no noise).
    package func voiced(_ stretched: AudioClip, speech: SpeechBoundaries?, bed: AudioClip?) -> AudioClip {
        var voiced = stretched
        if let noise, let bed, let speech {
            let offsetSamples = Int(Int64(noise.offsetMs) * Int64(bed.sampleRateHz) / 1_000)
            voiced = NoiseMixer.mix(stretched, speech: speech, noise: bed, snrDb: noise.snrDb, offsetSamples: offsetSamples)
        }
        return AudioGain.apply(gainDb, to: voiced)
    }
}
