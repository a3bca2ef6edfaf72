/// What a run amounts to, as the rendered reports (HTML, JUnit, Markdown) headline it: the
/// gate's own verdict (`GateVerdict`, the exit code), so a report never says other than the
/// exit code did.
public struct ReportVerdict: Sendable, Hashable {
    public enum Outcome: String, Sendable {
        case passed, failed
        /// The figures are not to be trusted (saturated generator, unjudged threshold).
        case invalid
    }

    public var outcome: Outcome
    /// One line: `2 of 3 thresholds failed`, `no thresholds; 0 errors`.
    public var headline: String

    public init(_ report: RunReport) {
        let checks = report.thresholds.map(ThresholdCheck.init(result:))
        let failed = checks.filter { $0.status == .failed }.count
        let unjudged = checks.filter { $0.status == .invalid }
        switch GateVerdict.decide(report: report, checks: checks) {
        case .unreachable:
            outcome = .failed
            headline = "infrastructure failure: no session reached the endpoint (" + report.errors.byClass.keys.sorted().joined(separator: ", ") + ")"
        case .invalid where !report.generator.healthy:
            outcome = .invalid
            headline = "run invalid: the generator was saturated (" + report.generator.problems.joined(separator: "; ") + ")"
        case .invalid:
            outcome = .invalid
            headline = "run invalid: \(unjudged.count) of \(checks.count) thresholds could not be judged ("
                + unjudged.map { "\($0.result.expression): \($0.result.reason ?? "no samples")" }.joined(separator: "; ") + ")"
        case .failed where failed == 0 && GateVerdict.noSessionCompleted(report):
            outcome = .failed
            headline = GateVerdict.noSessionCompletedText(report)
        case .failed:
            outcome = .failed
            headline = "\(failed) of \(checks.count) thresholds failed"
        case .passed:
            outcome = .passed
            headline = checks.isEmpty ? "no thresholds; \(report.errors.total) errors" : "all \(checks.count) thresholds passed"
        }
    }

    /// `PASSED`, `FAILED`, `INVALID`.
    public var label: String { outcome.rawValue.uppercased() }
}
