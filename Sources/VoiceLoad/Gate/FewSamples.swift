/// A percentile threshold on fewer samples than its percentile needs
/// (`ThresholdAggregation.minimumSamples`).
///
/// Every percentile of a set of samples is one of the samples, so when every sample meets the
/// bound the percentile does too, and when none does the percentile fails, however few they
/// are: such a threshold is judged (passed or failed) on every sample. Only samples on both
/// sides of the bound leave the verdict to the percentile, which too few samples cannot
/// estimate: that threshold cannot be judged (the run is invalid, exit 3), and more samples
/// could settle it (`vload capacity` extends a step's hold for them).
package enum FewSamples {
    /// Where the samples lie against a bound.
    package enum Side: Sendable, Hashable {
        /// Every sample meets the bound.
        case allMeet
        /// No sample meets the bound.
        case noneMeet
        /// Some meet it and some do not, or it cannot be told from the extremes (`==`, `!=`).
        case straddle
    }

    /// Where samples whose exact smallest and largest values are `minMs` and `maxMs` lie against
    /// `comparison bound`. The extremes decide for `<`, `<=`, `>`, `>=`; `==` and `!=` are
    /// decided only when every sample equals the bound or the bound is outside the extremes.
    package static func side(minMs: Double, maxMs: Double, _ comparison: ThresholdComparison, _ bound: Double) -> Side {
        let outside = bound < minMs || bound > maxMs
        let allAtBound = minMs == bound && maxMs == bound
        let all: Bool
        let none: Bool
        switch comparison {
        case .less, .lessOrEqual:
            all = comparison.holds(maxMs, bound)
            none = !comparison.holds(minMs, bound)
        case .greater, .greaterOrEqual:
            all = comparison.holds(minMs, bound)
            none = !comparison.holds(maxMs, bound)
        case .equal:
            all = allAtBound
            none = outside
        case .notEqual:
            all = outside
            none = allAtBound
        }
        if all { return .allMeet }
        if none { return .noneMeet }
        return .straddle
    }

    /// The exact smallest and largest sample in ms: the serialized histogram's exact range when
    /// the report has it, else the report's `min` and `max` (`max` is then its bucket's upper
    /// end, which can only make samples look as if they straddle: never a wrong verdict).
    package static func extremesMs(_ figures: MetricReport) -> (minMs: Double, maxMs: Double)? {
        if let low = figures.histogram?.minValue, let high = figures.histogram?.maxValue {
            return (Double(low) / 1_000, Double(high) / 1_000)
        }
        guard let low = figures.min, let high = figures.max else { return nil }
        return (low, high)
    }
}

/// A percentile threshold that could not be judged because its samples straddle the bound and
/// are fewer than the percentile needs: more samples could settle it.
package struct SampleShortfall: Sendable, Hashable {
    /// The threshold as written.
    package var expression: String
    package var count: Int
    /// Samples the percentile needs (`ThresholdAggregation.minimumSamples`).
    package var needed: Int

    package init(expression: String, count: Int, needed: Int) {
        self.expression = expression
        self.count = count
        self.needed = needed
    }

    /// `first_audio_from_end_ms.p95 < 900 has 11 of the 20 samples it needs`.
    package var text: String { "\(expression) has \(count) of the \(needed) samples it needs" }
}
