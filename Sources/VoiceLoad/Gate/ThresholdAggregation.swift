import Foundation

/// How a threshold reduces a metric to one figure: `count`, `rate`, `mean`, `min`, `max` or a
/// percentile `pN` (`p50`, `p95`, `p99.9`).
package enum ThresholdAggregation: Sendable, Hashable {
    case count
    /// Per second of run for a latency metric (samples / duration); the value itself for a rate metric.
    case rate
    case mean
    case min
    case max
    /// A percentile in (0, 100].
    case percentile(Double)

    /// Parses `count`, `rate`, `mean`, `min`, `max`, `pN`; nil for anything else.
    package init?(_ text: String) {
        switch text {
        case "count": self = .count
        case "rate": self = .rate
        case "mean", "avg": self = .mean
        case "min": self = .min
        case "max": self = .max
        default:
            guard text.hasPrefix("p"), let value = Double(text.dropFirst()), value > 0, value <= 100,
                text.dropFirst().allSatisfy({ $0.isNumber || $0 == "." })
            else { return nil }
            self = .percentile(value)
        }
    }

    /// As report.json writes it: `p95`, `p99.9`, `mean`.
    package var name: String {
        switch self {
        case .count: return "count"
        case .rate: return "rate"
        case .mean: return "mean"
        case .min: return "min"
        case .max: return "max"
        case .percentile(let value):
            return value == value.rounded() ? "p\(Int(value))" : "p\(value)"
        }
    }

    /// Samples a percentile needs to be meaningful: at least 20, and at least one sample
    /// beyond it (p99 needs 100, p99.9 needs 1000). nil for the other aggregations.
    package var minimumSamples: Int? {
        guard case .percentile(let value) = self else { return nil }
        guard value < 100 else { return 20 }
        return Swift.max(20, Int((100 / (100 - value) - 1e-9).rounded(.up)))
    }
}

extension ThresholdAggregation {
    /// The aggregation a mistyped one most likely meant: another spelling (`P95`, `95`, `median`,
    /// `average`, `p999` → `p99.9`) or the nearest word (`mena` → `mean`); nil when nothing is near.
    package static func suggestion(for word: String) -> String? {
        let lower = word.lowercased()
        if lower != word, let parsed = ThresholdAggregation(lower) { return parsed.name }
        let spelled = ["median": "p50", "average": "mean", "minimum": "min", "maximum": "max"]
        if let known = spelled[lower] { return known }
        var digits = lower
        for prefix in ["percentile", "perc", "pct", "p"] where digits.hasPrefix(prefix) {
            digits = String(digits.dropFirst(prefix.count))
            break
        }
        digits = digits.replacingOccurrences(of: "_", with: ".").replacingOccurrences(of: ",", with: ".")
        if !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "." }) {
            if let parsed = ThresholdAggregation("p" + digits) { return parsed.name }
            // p999 → p99.9, p9995 → p99.95: a percentile above 100 missing its point.
            if digits.count > 2, digits.allSatisfy(\.isNumber),
                let parsed = ThresholdAggregation("p" + digits.prefix(2) + "." + digits.dropFirst(2))
            {
                return parsed.name
            }
            return nil
        }
        return NameSuggestion.nearest(to: lower, in: ["count", "rate", "mean", "min", "max"])
    }
}
