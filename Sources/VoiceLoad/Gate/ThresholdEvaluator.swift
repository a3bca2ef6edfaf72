/// Judges thresholds on a run's report (after warm-up: the report holds only what counts).
public enum ThresholdEvaluator {
    /// Every expression, in order.
    public static func evaluate(_ expressions: [ThresholdExpression], on report: RunReport) -> [ThresholdCheck] {
        expressions.map { evaluate($0, on: report) }
    }

    public static func evaluate(_ expression: ThresholdExpression, on report: RunReport) -> ThresholdCheck {
        let (measured, reason) = measure(expression, on: report)
        var result = ThresholdResult(
            expression: expression.text, metric: expression.metric.name, label: expression.label,
            aggregation: expression.aggregation.name, comparison: expression.comparison.rawValue, bound: expression.bound,
            measured: measured.map(rounded), unit: expression.unit, passed: false, reason: reason
        )
        guard let measured, reason == nil else {
            result.status = ThresholdCheck.Status.invalid.rawValue
            return ThresholdCheck(result: result, status: .invalid)
        }
        result.passed = expression.comparison.holds(rounded(measured), expression.bound)
        result.status = (result.passed ? ThresholdCheck.Status.passed : .failed).rawValue
        if !result.passed {
            result.reason = "measured \(ThresholdCheck(result: result, status: .failed).measuredText), bound \(expression.comparison.rawValue) \(formatted(expression.bound))"
        }
        return ThresholdCheck(result: result, status: result.passed ? .passed : .failed)
    }

    /// The figure, or nil and why it cannot be computed; a figure with a reason is not to be judged.
    static func measure(_ expression: ThresholdExpression, on report: RunReport) -> (Double?, String?) {
        switch expression.metric {
        case .ratio(let ratio):
            let (part, whole, what) = fraction(ratio, report)
            guard whole > 0 else { return (nil, "no \(what)") }
            return (Double(part) / Double(whole) * 100, nil)
        case .tally(let tally):
            switch tally {
            case .sessions: return (Double(report.sessions.started), nil)
            case .turns: return (Double(report.turns.values.reduce(0, +)), nil)
            case .errors: return (Double(report.errors.total), nil)
            case .dropped: return (Double(report.sessions.dropped ?? 0), nil)
            }
        case .latency(let metric):
            let figures: MetricReport?
            if let label = expression.label {
                guard let metrics = report.labels[label] else { return (nil, "no turns labelled '\(label)'") }
                figures = metrics[metric.rawValue]
            } else {
                switch metric {
                case .sendLagMs: figures = report.generator.sendLagMs
                case .startLagMs: figures = report.generator.startLagMs
                default: figures = report.metrics[metric.rawValue]
                }
            }
            return latency(figures, expression.aggregation, durationS: report.durationS)
        }
    }

    private static func fraction(_ ratio: GateRatio, _ report: RunReport) -> (Int, Int, String) {
        let turns = report.turns.values.reduce(0, +)
        switch ratio {
        case .errorRate: return (report.sessions.failed, report.sessions.started, "sessions")
        case .missedInterruptionRate: return (report.interruptions.missed, report.interruptions.bargeIns, "barge-ins")
        case .prematureResponseRate: return (report.turns[TurnOutcome.prematureResponse.rawValue] ?? 0, turns, "turns")
        case .timeoutRate: return (report.turns[TurnOutcome.timedOut.rawValue] ?? 0, turns, "turns")
        case .droppedRate:
            return (report.sessions.dropped ?? 0, report.scheduledSessions, "scheduled starts")
        case .stalledTurnRate:
            let continuity = report.audioContinuity
            return (continuity?.stalledTurns ?? 0, continuity?.turnsWithAudio ?? 0, "turns with agent audio")
        }
    }

    private static func latency(
        _ figures: MetricReport?, _ aggregation: ThresholdAggregation, durationS: Double
    ) -> (Double?, String?) {
        let count = figures?.count ?? 0
        switch aggregation {
        case .count: return (Double(count), nil)
        case .rate: return (Double(count) / max(durationS, 0.001), nil)
        default: break
        }
        guard let figures, count > 0 else { return (nil, "no samples") }
        switch aggregation {
        case .mean: return (figures.mean, nil)
        case .min: return (figures.min, nil)
        case .max: return (figures.max, nil)
        case .percentile(let percentile):
            let value = figures.histogram.map { Double($0.histogram.histogram.valueAtPercentile(percentile)) / 1_000 }
                ?? standard(figures, percentile)
            if let needed = aggregation.minimumSamples, count < needed {
                return (value, "\(count) samples: too few for \(aggregation.name) (needs \(needed))")
            }
            return (value, value == nil ? "no histogram in the report" : nil)
        case .count, .rate: return (nil, nil)
        }
    }

    private static func standard(_ figures: MetricReport, _ percentile: Double) -> Double? {
        switch percentile {
        case 50: return figures.p50
        case 90: return figures.p90
        case 95: return figures.p95
        case 99: return figures.p99
        default: return nil
        }
    }

    private static func rounded(_ value: Double) -> Double { (value * 1_000).rounded() / 1_000 }

    private static func formatted(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
