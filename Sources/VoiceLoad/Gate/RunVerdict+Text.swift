/// The verdict in words, for each place that shows it: the last line of `vload run` and
/// `vload merge`, the headline of the rendered reports, and a capacity step's reasons.
extension RunVerdict {
    /// One line for the end of the run's output: `verdict: PASS (2 thresholds hold)`,
    /// `verdict: FAIL (1 of 2 thresholds failed)`, `verdict: INVALID RUN: …`.
    package var summaryLine: String {
        switch outcome {
        case .passed:
            switch checks.count {
            case 0: return "verdict: PASS (no thresholds)"
            case 1: return "verdict: PASS (1 threshold holds)"
            default: return "verdict: PASS (\(checks.count) thresholds hold)"
            }
        case .failed:
            return "verdict: FAIL (" + reasons.map(\.text).joined(separator: "; ") + ")"
        case .invalid:
            return "verdict: INVALID RUN: " + reasons.map(\.text).joined(separator: "; ")
        case .unreachable:
            return "verdict: INFRASTRUCTURE FAILURE: " + reasons.map(\.text).joined(separator: "; ")
        }
    }

    /// The rendered reports' headline: `2 of 3 thresholds failed`, `no thresholds; 0 errors`,
    /// `run invalid: the generator was saturated (…)`.
    package func headline(errors: Int) -> String {
        switch outcome {
        case .passed:
            return checks.isEmpty ? "no thresholds; \(errors) errors" : "all \(checks.count) thresholds passed"
        case .failed:
            return reasons.map(\.text).joined(separator: "; ")
        case .invalid:
            let unjudged = reasons.filter { if case .unjudged = $0 { true } else { false } }
            if unjudged.count == reasons.count {
                return "run invalid: \(unjudged.count) of \(checks.count) thresholds could not be judged ("
                    + unjudged.map(\.text).joined(separator: "; ") + ")"
            }
            return "run invalid: " + reasons.map(\.text).joined(separator: "; ")
        case .unreachable:
            return "infrastructure failure: " + reasons.map(\.text).joined(separator: "; ")
        }
    }
}

extension RunVerdict.Reason {
    /// The reason in words: `1 of 2 thresholds failed`, `the generator was saturated (send_lag_ms
    /// p99 4.2 ms > 2 ms)`, `first_audio_from_end_ms.p99 < 900: no samples`.
    package var text: String {
        switch self {
        case .unreachable(let classes):
            return "no session reached the endpoint (" + classes.joined(separator: ", ") + ")"
        case .generatorSaturated(let problems):
            return "the generator was saturated (" + problems.joined(separator: "; ") + ")"
        case .unjudged(let check):
            return "\(check.result.expression): \(check.result.reason ?? "no samples")"
        case .thresholdsFailed(let failed, let total):
            return "\(failed.count) of \(total) thresholds failed"
        case .noSessionCompleted(let failed, let errorsByClass):
            let classes = errorsByClass.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "no session completed (\(failed) failed" + (classes.isEmpty ? ")" : ": \(classes))")
        case .regression:
            return "regression against the baseline"
        }
    }
}
