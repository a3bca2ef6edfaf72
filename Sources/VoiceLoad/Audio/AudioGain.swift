/// A clip made louder or softer by a gain in dB (a caller near or far from the phone,
/// docs/callers.md): every sample times 10^(gain / 20), rounded to the nearest sample and
/// saturating at full scale, as a telephone's converter clips a caller who shouts.
package enum AudioGain {
    package static func apply(_ gainDb: Double, to clip: AudioClip) -> AudioClip {
        guard gainDb != 0 else { return clip }
        let factor = AudioLevel.amplitude(dbfs: gainDb)
        return AudioClip(samples: clip.samples.map { NoiseMixer.saturated(Double($0) * factor) }, sampleRateHz: clip.sampleRateHz)
    }
}
