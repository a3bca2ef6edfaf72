import WSCore

/// The ranges a run draws its callers' voices from (docs/callers.md): a noise bed among
/// `noiseBeds` at an SNR in `snrDb`, a gain in `gainDb` and a speaking rate in `speakingRate`,
/// each uniform over its range. Caller `i`'s draws come from a generator seeded with the run's
/// seed and `i` alone, so a run with the same seed has the same callers, and a caller keeps its
/// voice when others are added, fail or arrive in another order.
package struct CallerVariation: Sendable, Hashable {
    /// The beds to choose among (empty: no noise).
    package var noiseBeds: [String]
    package var snrDb: ClosedRange<Double>
    package var gainDb: ClosedRange<Double>
    package var speakingRate: ClosedRange<Double>
    /// The length of the beds, for the offset each caller starts at.
    package var bedDurationMs: Int
    /// The WAV file of each bed in `noiseBeds`, by name (`setNoise`).
    package var bedPaths: [String: String] = [:]

    package init(
        noiseBeds: [String] = [],
        snrDb: ClosedRange<Double> = 10...10,
        gainDb: ClosedRange<Double> = 0...0,
        speakingRate: ClosedRange<Double> = 1...1,
        bedDurationMs: Int = 8_000
    ) {
        self.noiseBeds = noiseBeds
        self.snrDb = snrDb
        self.gainDb = gainDb
        self.speakingRate = speakingRate
        self.bedDurationMs = bedDurationMs
    }

    /// The voice of caller `caller` (0-based) in a run seeded with `seed`. Every draw is made
    /// whether or not its range is a single value, so widening one range leaves the others'
    /// draws as they were.
    package func voice(ofCaller caller: Int, seed: UInt64) -> CallerVoice {
        var generator = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: caller) &+ 1) &* 0x9E37_79B9_7F4A_7C15)
        let bedIndex = Int.random(in: 0..<max(noiseBeds.count, 1), using: &generator)
        let snr = Self.draw(snrDb, using: &generator)
        let offsetMs = Int.random(in: 0..<max(bedDurationMs, 1), using: &generator)
        let gain = Self.draw(gainDb, using: &generator)
        let rate = Self.draw(speakingRate, using: &generator)
        let noise = noiseBeds.isEmpty ? nil : CallerVoice.Noise(bed: noiseBeds[bedIndex], snrDb: snr, offsetMs: offsetMs)
        return CallerVoice(noise: noise, gainDb: gain, speakingRate: rate)
    }

    /// A value uniform over `range`, rounded to 0.01 (what the reports print) within it.
    private static func draw(_ range: ClosedRange<Double>, using generator: inout SeededGenerator) -> Double {
        let value = (Double.random(in: range, using: &generator) * 100).rounded() / 100
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
