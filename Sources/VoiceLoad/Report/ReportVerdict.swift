/// What a run amounts to, as the rendered reports (HTML, JUnit, Markdown) headline it.
/// With thresholds it is their verdict; without, a clean run is one without errors.
public struct ReportVerdict: Sendable, Hashable {
    public enum Outcome: String, Sendable {
        case passed, failed
        /// The generator was saturated: the figures are not to be trusted.
        case invalid
    }

    public var outcome: Outcome
    /// One line: `2 of 3 thresholds failed`, `no thresholds; 0 errors`.
    public var headline: String

    public init(_ report: RunReport) {
        let failed = report.thresholds.filter { !$0.passed }.count
        let unjudged = report.thresholds.filter(\.isInvalid)
        if !report.generator.healthy {
            outcome = .invalid
            headline = "run invalid: the generator was saturated (" + report.generator.problems.joined(separator: "; ") + ")"
        } else if !unjudged.isEmpty {
            outcome = .invalid
            headline = "run invalid: \(unjudged.count) of \(report.thresholds.count) thresholds could not be judged ("
                + unjudged.map { "\($0.expression): \($0.reason ?? "no samples")" }.joined(separator: "; ") + ")"
        } else if !report.thresholds.isEmpty {
            outcome = failed == 0 ? .passed : .failed
            headline = failed == 0
                ? "all \(report.thresholds.count) thresholds passed"
                : "\(failed) of \(report.thresholds.count) thresholds failed"
        } else {
            outcome = report.errors.total == 0 ? .passed : .failed
            headline = "no thresholds; \(report.errors.total) errors"
        }
    }

    /// `PASSED`, `FAILED`, `INVALID`.
    public var label: String { outcome.rawValue.uppercased() }
}
