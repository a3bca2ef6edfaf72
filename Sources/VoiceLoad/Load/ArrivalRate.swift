import Foundation

/// Session starts per second, as written on the command line: `5`, `5/s`, `300/m`.
package enum ArrivalRate {
    /// `10/s` → 10, `600/m` → 10, `2.5/s` → 2.5; nil when the text is not a rate with a unit.
    package static func parsePerSecond(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (suffix, divisor) in [("/s", 1.0), ("/m", 60.0), ("/h", 3_600.0)] where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)),
                value >= 0, value.isFinite
            else { return nil }
            return value / divisor
        }
        return nil
    }

    /// `--arrival-rate`: a rate with a unit, or a bare number of starts per second.
    package static func parse(_ text: String, option: String = "--arrival-rate") throws(InputError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let rate = parsePerSecond(trimmed) ?? Double(trimmed)
        guard let rate, rate.isFinite, rate > 0 else {
            throw InputError("invalid \(option) '\(text)': use starts per second like 5/s, 300/m or 2.5")
        }
        guard rate <= 10_000 else { throw InputError("\(option) \(format(rate))/s is more than 10000 starts per second") }
        return rate
    }

    /// A rate without trailing zeros: 10 → "10", 2.5 → "2.5" (as JSON writes numbers).
    package static func format(_ perSecond: Double) -> String {
        JSONText.number(perSecond)
    }
}

/// How session starts are spaced in an open model.
package enum ArrivalProcess: String, Sendable, Hashable, CaseIterable {
    /// Independent starts at the given rate (exponential gaps): how calls arrive.
    case poisson
    /// Evenly spaced starts.
    case uniform
}
