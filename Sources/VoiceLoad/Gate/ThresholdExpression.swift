import Foundation

/// A threshold: `METRIC[{label=LABEL}][.AGGREGATION] OP NUMBER[UNIT]`.
///
/// - `METRIC`: a metric of docs/metrics.md (`first_audio_from_end_ms`), a rate
///   (`error_rate`, `missed_interruption_rate`, `premature_response_rate`, `timeout_rate`,
///   `dropped_rate`, `stalled_turn_rate`, `false_barge_in_rate`) or a
///   count (`sessions`, `turns`, `errors`).
/// - `{label=LABEL}`: only the turns of that label (turn metrics only).
/// - `AGGREGATION`: `count`, `rate` (samples per second), `mean`, `min`, `max`, `pN` (`p95`,
///   `p99.9`); a latency metric needs one, a rate or count takes none.
/// - `OP`: `<`, `<=`, `>`, `>=`, `==`, `!=`.
/// - `UNIT`: `ms` or `s` for latencies (ms when omitted), `%` for rates (percent, also when
///   omitted), none for counts.
///
/// Examples: `first_audio_from_end_ms.p95 < 900`, `first_audio_from_end_ms{label=arrival}.p50 <= 800ms`,
/// `error_rate < 1%`, `missed_interruption_rate == 0`, `turns >= 20`.
package struct ThresholdExpression: Sendable, Hashable {
    /// As written (trimmed).
    package var text: String
    package var metric: GateMetric
    package var label: String?
    package var aggregation: ThresholdAggregation
    package var comparison: ThresholdComparison
    /// In the metric's unit: ms, percent, or a count (per second for `rate` of a latency metric).
    package var bound: Double
    /// vload's own bound on a run given no thresholds (`defaultErrorRate`), not the user's.
    package var isDefault = false

    /// What a run given no thresholds is judged by: fewer than 1% of its sessions failed
    /// (`--no-default-thresholds` turns it off). A run with no session to judge it on is not
    /// made invalid by it: the default is then left out.
    package static var defaultErrorRate: ThresholdExpression {
        guard var expression = try? parse("error_rate < 1%") else { preconditionFailure("the default threshold parses") }
        expression.isDefault = true
        return expression
    }

    package init(
        text: String,
        metric: GateMetric,
        label: String? = nil,
        aggregation: ThresholdAggregation,
        comparison: ThresholdComparison,
        bound: Double
    ) {
        self.text = text
        self.metric = metric
        self.label = label
        self.aggregation = aggregation
        self.comparison = comparison
        self.bound = bound
    }

    /// The unit the figure is in: `ms`, `%`, `/s` or `` (a count).
    package var unit: String {
        switch (metric, aggregation) {
        case (.ratio, _): return "%"
        case (.tally, _), (.latency, .count): return ""
        case (.latency, .rate): return "/s"
        case (.latency, _): return "ms"
        }
    }

    /// Parses one expression; the error is one line naming what is wrong.
    package static func parse(_ source: String) throws(InputError) -> ThresholdExpression {
        let text = source.trimmingCharacters(in: .whitespaces)
        func fail(_ why: String) -> InputError { InputError("invalid threshold '\(text)': \(why)") }
        guard let found = findComparison(in: text) else {
            throw fail("no comparison (use <, <=, >, >=, == or !=), e.g. 'first_audio_from_end_ms.p95 < 900'")
        }
        let (comparison, opRange) = found
        let left = text[..<opRange.lowerBound].trimmingCharacters(in: .whitespaces)
        let right = text[opRange.upperBound...].trimmingCharacters(in: .whitespaces)
        var rest = Substring(left)
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        rest = rest.dropFirst(name.count)
        guard !name.isEmpty else { throw fail("it must start with a metric name") }
        guard let metric = GateMetric(String(name)) else {
            let guess = GateMetric.suggestion(for: String(name)).map { ", did you mean '\($0)'?" } ?? ""
            throw fail(
                "unknown metric '\(name)'\(guess) (a metric of 'vload help metrics', error_rate, missed_interruption_rate, premature_response_rate, timeout_rate, dropped_rate, stalled_turn_rate, false_barge_in_rate, sessions, turns, errors or dropped)"
            )
        }
        var label: String?
        if rest.hasPrefix("{") {
            guard let close = rest.firstIndex(of: "}") else { throw fail("'{' without '}'") }
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            let parts = inner.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0] == "label", !parts[1].isEmpty else {
                throw fail("the selector must be {label=NAME}")
            }
            label = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            rest = rest[rest.index(after: close)...]
        }
        var aggregation: ThresholdAggregation?
        if rest.hasPrefix(".") {
            let word = String(rest.dropFirst())
            guard let parsed = ThresholdAggregation(word) else {
                let guess = ThresholdAggregation.suggestion(for: word).map { ", did you mean '\($0)'?" } ?? ""
                throw fail("unknown aggregation '\(word)'\(guess) (count, rate, mean, min, max, or pN such as p95, p99.9)")
            }
            aggregation = parsed
        } else if !rest.isEmpty {
            throw fail("unexpected '\(rest)' after the metric name")
        }
        let checkedAggregation = try check(metric: metric, label: label, aggregation: aggregation, fail: fail)
        let bound = try parseBound(right, metric: metric, aggregation: checkedAggregation, fail: fail)
        return ThresholdExpression(
            text: text,
            metric: metric,
            label: label,
            aggregation: checkedAggregation,
            comparison: comparison,
            bound: bound
        )
    }

    /// The earliest comparison operator in `text` (the longest at that place) and where it stands.
    static func findComparison(in text: String) -> (ThresholdComparison, Range<String.Index>)? {
        var best: (ThresholdComparison, Range<String.Index>)?
        for comparison in ThresholdComparison.allCases {
            guard let range = text.range(of: comparison.rawValue) else { continue }
            if let current = best, current.1.lowerBound <= range.lowerBound { continue }
            best = (comparison, range)
        }
        return best
    }

    private static func check(
        metric: GateMetric,
        label: String?,
        aggregation: ThresholdAggregation?,
        fail: (String) -> InputError
    ) throws(InputError) -> ThresholdAggregation {
        switch metric {
        case .latency(let name):
            guard let aggregation else {
                throw fail("'\(name.rawValue)' needs an aggregation: .count, .rate, .mean, .min, .max or .pN (e.g. .p95)")
            }
            if label != nil, !TurnRecord.metricNames.contains(name) {
                throw fail("{label=…} applies to turn metrics only, not to '\(name.rawValue)'")
            }
            return aggregation
        case .ratio(let ratio):
            if label != nil { throw fail("{label=…} applies to turn metrics only, not to '\(ratio.rawValue)'") }
            guard aggregation == nil || aggregation == .rate else {
                throw fail("'\(ratio.rawValue)' takes no aggregation (it is a percentage)")
            }
            return .rate
        case .tally(let tally):
            if label != nil { throw fail("{label=…} applies to turn metrics only, not to '\(tally.rawValue)'") }
            guard aggregation == nil || aggregation == .count else {
                throw fail("'\(tally.rawValue)' takes no aggregation (it is a count)")
            }
            return .count
        }
    }

    private static func parseBound(
        _ text: String,
        metric: GateMetric,
        aggregation: ThresholdAggregation,
        fail: (String) -> InputError
    ) throws(InputError) -> Double {
        let number = text.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }
        let unit = text.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        guard let value = Double(number), value.isFinite else {
            throw fail("the bound '\(text)' is not a number")
        }
        let fits: Bool
        var scale = 1.0
        switch metric {
        case .latency where aggregation == .count, .tally: fits = unit.isEmpty
        case .latency where aggregation == .rate: fits = unit.isEmpty || unit == "/s"
        case .latency:
            fits = unit.isEmpty || unit == "ms" || unit == "s"
            if unit == "s" { scale = 1_000 }
        case .ratio: fits = unit.isEmpty || unit == "%"
        }
        guard fits else { throw fail("unit '\(unit)' does not fit (ms or s for latencies, % for rates, none for counts)") }
        guard (value * scale).isFinite else { throw fail("the bound '\(text)' is too large") }
        return value * scale
    }
}
