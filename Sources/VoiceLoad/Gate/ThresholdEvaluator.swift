/// Judges thresholds on a run's report (after warm-up: the report holds only what counts).
package enum ThresholdEvaluator {
    /// Every expression, in order. vload's own default (`ThresholdExpression.defaultErrorRate`)
    /// never makes a run invalid: with nothing to judge it on (no session), it is left out.
    package static func evaluate(_ expressions: [ThresholdExpression], on report: RunReport) -> [ThresholdCheck] {
        expressions.compactMap { expression in
            let check = evaluate(expression, on: report)
            return expression.isDefault && check.status == .invalid ? nil : check
        }
    }

    package static func evaluate(_ expression: ThresholdExpression, on report: RunReport) -> ThresholdCheck {
        let (measured, reason) = measure(expression, on: report)
        var result = ThresholdResult(
            expression: expression.text,
            metric: expression.metric.name,
            label: expression.label,
            aggregation: expression.aggregation.name,
            comparison: expression.comparison.rawValue,
            bound: expression.bound,
            measured: measured.map(rounded),
            unit: expression.unit,
            status: .invalid,
            reason: reason
        )
        if expression.isDefault { result.isDefault = true }
        if let judged = judgedOnEverySample(expression, result, on: report) { return judged }
        guard let measured, reason == nil else { return ThresholdCheck(result: result) }
        result.status = expression.comparison.holds(rounded(measured), expression.bound) ? .passed : .failed
        if result.status == .failed {
            result.reason =
                "measured \(ThresholdCheck(result: result).measuredText), bound \(expression.comparison.rawValue) \(formatted(expression.bound))"
        }
        return ThresholdCheck(result: result)
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
        case .latency:
            let (figures, missing) = latencyFigures(expression, on: report)
            if let missing { return (nil, missing) }
            return latency(figures, expression.aggregation, durationS: report.durationS)
        }
    }

    /// The figures of a latency threshold's metric (of its label), or why there are none.
    static func latencyFigures(_ expression: ThresholdExpression, on report: RunReport) -> (MetricReport?, String?) {
        guard case .latency(let metric) = expression.metric else { return (nil, nil) }
        if let label = expression.label {
            guard let metrics = report.labels[label] else { return (nil, "no turns labelled '\(label)'") }
            return (metrics[metric.rawValue], nil)
        }
        switch metric {
        case .sendLagMs: return (report.generator.sendLagMs, nil)
        case .startLagMs: return (report.generator.startLagMs, nil)
        case .receiveLagMs: return (report.generator.receiveLagMs, nil)
        default: return (report.metrics[metric.rawValue], nil)
        }
    }

    /// A percentile threshold with fewer samples than its percentile needs (see `FewSamples`):
    /// passed when every sample meets the bound, failed when none does, and otherwise not
    /// judged, with the shortfall more samples would make up. nil for any other threshold.
    private static func judgedOnEverySample(
        _ expression: ThresholdExpression,
        _ result: ThresholdResult,
        on report: RunReport
    ) -> ThresholdCheck? {
        guard case .percentile = expression.aggregation, let needed = expression.aggregation.minimumSamples,
            let figures = latencyFigures(expression, on: report).0, figures.count > 0, figures.count < needed,
            let extremes = FewSamples.extremesMs(figures)
        else { return nil }
        var result = result
        let count = figures.count
        let name = expression.aggregation.name
        let bound = "\(expression.comparison.rawValue) \(formatted(expression.bound)) ms"
        let few = "\(count) samples: too few for \(name) (needs \(needed))"
        // A percentile of the samples is one of them: the histogram's bucket value may lie past the extremes.
        result.measured = result.measured.map { rounded(Swift.min(Swift.max($0, extremes.minMs), extremes.maxMs)) }
        let status: ThresholdStatus
        var shortfall: SampleShortfall?
        switch FewSamples.side(minMs: extremes.minMs, maxMs: extremes.maxMs, expression.comparison, expression.bound) {
        case .allMeet:
            status = .passed
            result.reason = "\(few), but all \(count) are \(bound): \(name) holds whatever it is"
        case .noneMeet:
            status = .failed
            result.reason = "\(few), but none of the \(count) is \(bound): \(name) fails whatever it is"
        case .straddle:
            status = .invalid
            result.reason =
                "\(few), on both sides of the bound (\(formatted(rounded(extremes.minMs)))–\(formatted(rounded(extremes.maxMs))) ms)"
            shortfall = SampleShortfall(expression: expression.text, count: count, needed: needed)
        }
        result.status = status
        return ThresholdCheck(result: result, shortfall: shortfall)
    }

    /// The 95% bootstrap interval (ms) of a percentile threshold's figure (seeded resampling of
    /// the metric's histogram, as `vload compare` does): how far the figure could move between
    /// runs of the same load. nil for other thresholds, and below the samples the percentile needs.
    package static func interval(_ expression: ThresholdExpression, on report: RunReport, seed: UInt64 = 0x5EED) -> ClosedRange<Double>? {
        guard case .percentile(let percentile) = expression.aggregation, let needed = expression.aggregation.minimumSamples,
            let figures = latencyFigures(expression, on: report).0, figures.count >= needed,
            let histogram = figures.histogram?.histogram
        else { return nil }
        let bootstrap = PercentileBootstrap(histogram)
        return bootstrap.intervals(
            [percentile],
            resamples: ReportComparison.resamples(bootstrap.count),
            seed: seed ^ ReportComparison.stableHash(expression.text)
        ).first
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
        case .falseBargeInRate: return (report.interruptions.backchannelsStopped, report.interruptions.backchannels, "backchannels")
        }
    }

    private static func latency(
        _ figures: MetricReport?,
        _ aggregation: ThresholdAggregation,
        durationS: Double
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
            let value =
                figures.histogram.map { Double($0.histogram.histogram.valueAtPercentile(percentile)) / 1_000 }
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
