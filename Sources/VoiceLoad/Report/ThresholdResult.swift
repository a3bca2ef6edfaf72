/// How a threshold came out on a run.
package enum ThresholdStatus: String, Codable, Sendable, Hashable {
    case passed
    case failed
    /// No samples, or too few for the percentile and on both sides of the bound: the run
    /// cannot be judged on it, and is invalid (see `FewSamples`).
    case invalid
}

/// One threshold of a run and its verdict, as report.json and every rendering of it (HTML,
/// JUnit, Markdown) show it.
package struct ThresholdResult: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case expression, metric, label, aggregation, comparison, bound, measured, unit, passed, status, reason
        case isDefault = "default"
    }

    /// As written: `first_audio_from_end_ms.p95 < 900`.
    package var expression: String
    /// The metric (`first_audio_from_end_ms`, `error_rate`, `missed_interruption_rate`).
    package var metric: String
    /// The turn label it is restricted to, if any.
    package var label: String?
    /// `count`, `rate`, `mean`, `min`, `max`, `p50`, `p95`, `p99.9`…
    package var aggregation: String
    /// `<`, `<=`, `>`, `>=`, `==`, `!=`.
    package var comparison: String
    package var bound: Double
    /// The run's figure; nil when it could not be computed (no samples).
    package var measured: Double?
    /// `ms`, `%` or `` (a count).
    package var unit: String
    package var status: ThresholdStatus {
        didSet { passed = status == .passed }
    }
    /// True only for `status` passed; report.json has said `passed` since before `status`.
    package private(set) var passed: Bool
    /// Whether the run could not be judged on it.
    package var isInvalid: Bool { status == .invalid }
    /// Why it failed or could not be judged (`no samples`, `12 samples: too few for p99 …`),
    /// or why a percentile passed on fewer samples than it needs (`… but all 12 are < 900 ms …`).
    package var reason: String?
    /// True for vload's own bound on a run given no thresholds (`error_rate < 1%`); absent otherwise.
    package var isDefault: Bool?

    package init(
        expression: String,
        metric: String,
        label: String? = nil,
        aggregation: String,
        comparison: String,
        bound: Double,
        measured: Double?,
        unit: String,
        status: ThresholdStatus,
        reason: String? = nil
    ) {
        self.expression = expression
        self.metric = metric
        self.label = label
        self.aggregation = aggregation
        self.comparison = comparison
        self.bound = bound
        self.measured = measured
        self.unit = unit
        self.status = status
        passed = status == .passed
        self.reason = reason
    }
}
