/// What a threshold can name: a latency metric of docs/metrics.md, a rate of the run, or a count.
package enum GateMetric: Sendable, Hashable {
    /// A latency metric (its samples: count, rate, mean, min, max, pN), in ms.
    case latency(MetricName)
    /// A percentage of the run (only `rate`, or no aggregation).
    case ratio(GateRatio)
    /// A plain count of the run (only `count`).
    case tally(GateTally)

    package init?(_ name: String) {
        if let metric = MetricName(rawValue: name) {
            self = .latency(metric)
        } else if let ratio = GateRatio(rawValue: name) {
            self = .ratio(ratio)
        } else if let tally = GateTally(rawValue: name) {
            self = .tally(tally)
        } else {
            return nil
        }
    }

    package var name: String {
        switch self {
        case .latency(let metric): return metric.rawValue
        case .ratio(let ratio): return ratio.rawValue
        case .tally(let tally): return tally.rawValue
        }
    }
}

/// The rates a threshold can bound, in percent.
package enum GateRatio: String, Sendable, Hashable, CaseIterable {
    /// Failed sessions / started sessions.
    case errorRate = "error_rate"
    /// Barge-ins with no acknowledgement in time / barge-ins.
    case missedInterruptionRate = "missed_interruption_rate"
    /// Turns answered before the user finished speaking / turns.
    case prematureResponseRate = "premature_response_rate"
    /// Turns whose answer never came (`timed_out`) / turns.
    case timeoutRate = "timeout_rate"
    /// Scheduled starts an open model could not make / scheduled starts.
    case droppedRate = "dropped_rate"
    /// Turns whose reply stalled (`stall_count` > 0) / turns whose reply had agent audio.
    case stalledTurnRate = "stalled_turn_rate"
    /// Backchannels the agent stopped for / backchannels.
    case falseBargeInRate = "false_barge_in_rate"
}

/// The counts a threshold can bound.
package enum GateTally: String, Sendable, Hashable, CaseIterable {
    case sessions
    case turns
    case errors
    /// Scheduled starts an open model could not make.
    case dropped
}

extension GateMetric {
    /// Every name a threshold takes, the latency metrics first (in docs/metrics.md's order).
    package static var allNames: [String] {
        MetricName.allCases.map(\.rawValue) + GateRatio.allCases.map(\.rawValue) + GateTally.allCases.map(\.rawValue)
    }

    /// The valid name nearest to a mistyped one (`eror_rate` → `error_rate`), if any is near.
    package static func suggestion(for name: String) -> String? {
        NameSuggestion.nearest(to: name, in: allNames)
    }
}
