/// How a threshold came out on a run.
public enum ThresholdStatus: String, Codable, Sendable, Hashable {
    case passed
    case failed
    /// No samples, or too few for the percentile and on both sides of the bound: the run
    /// cannot be judged on it, and is invalid (see `FewSamples`).
    case invalid
}

/// One threshold of a run and its verdict, as report.json and every rendering of it (HTML,
/// JUnit, Markdown) show it.
public struct ThresholdResult: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case expression, metric, label, aggregation, comparison, bound, measured, unit, passed, status, reason
        case isDefault = "default"
    }

    /// As written: `first_audio_from_end_ms.p95 < 900`.
    public var expression: String
    /// The metric (`first_audio_from_end_ms`, `error_rate`, `missed_interruption_rate`).
    public var metric: String
    /// The turn label it is restricted to, if any.
    public var label: String?
    /// `count`, `rate`, `mean`, `min`, `max`, `p50`, `p95`, `p99.9`…
    public var aggregation: String
    /// `<`, `<=`, `>`, `>=`, `==`, `!=`.
    public var comparison: String
    public var bound: Double
    /// The run's figure; nil when it could not be computed (no samples).
    public var measured: Double?
    /// `ms`, `%` or `` (a count).
    public var unit: String
    public var status: ThresholdStatus
    /// report.json also says `passed` (true only for `status` passed), as it did before `status`.
    public var passed: Bool { status == .passed }
    /// Whether the run could not be judged on it.
    public var isInvalid: Bool { status == .invalid }
    /// Why it failed or could not be judged (`no samples`, `12 samples: too few for p99 …`),
    /// or why a percentile passed on fewer samples than it needs (`… but all 12 are < 900 ms …`).
    public var reason: String?
    /// True for vload's own bound on a run given no thresholds (`error_rate < 1%`); absent otherwise.
    public var isDefault: Bool?

    public init(
        expression: String, metric: String, label: String? = nil, aggregation: String, comparison: String, bound: Double,
        measured: Double?, unit: String, status: ThresholdStatus, reason: String? = nil
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
        self.reason = reason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        expression = try container.decode(String.self, forKey: .expression)
        metric = try container.decode(String.self, forKey: .metric)
        label = try container.decodeIfPresent(String.self, forKey: .label)
        aggregation = try container.decode(String.self, forKey: .aggregation)
        comparison = try container.decode(String.self, forKey: .comparison)
        bound = try container.decode(Double.self, forKey: .bound)
        measured = try container.decodeIfPresent(Double.self, forKey: .measured)
        unit = try container.decode(String.self, forKey: .unit)
        // A report written before `status` existed has only `passed`.
        let passed = try container.decode(Bool.self, forKey: .passed)
        status = try container.decodeIfPresent(ThresholdStatus.self, forKey: .status) ?? (passed ? .passed : .failed)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        isDefault = try container.decodeIfPresent(Bool.self, forKey: .isDefault)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(expression, forKey: .expression)
        try container.encode(metric, forKey: .metric)
        try container.encodeIfPresent(label, forKey: .label)
        try container.encode(aggregation, forKey: .aggregation)
        try container.encode(comparison, forKey: .comparison)
        try container.encode(bound, forKey: .bound)
        try container.encodeIfPresent(measured, forKey: .measured)
        try container.encode(unit, forKey: .unit)
        try container.encode(passed, forKey: .passed)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(isDefault, forKey: .isDefault)
    }
}
