/// What a run amounts to, as the rendered reports (HTML, Markdown) headline it: the run's
/// verdict (`RunVerdict`, which gives the exit code), so a report never says other than the
/// exit code did.
package struct ReportVerdict: Sendable, Hashable {
    package enum Outcome: String, Sendable {
        case passed, failed
        /// The figures are not to be trusted (saturated generator, unjudged threshold).
        case invalid
    }

    package var outcome: Outcome
    /// One line: `2 of 3 thresholds failed`, `no thresholds; 0 errors`.
    package var headline: String

    package init(_ report: RunReport) {
        let verdict = RunVerdict(report)
        switch verdict.outcome {
        case .passed: outcome = .passed
        case .failed, .unreachable: outcome = .failed
        case .invalid: outcome = .invalid
        }
        headline = verdict.headline(errors: report.errors.total)
    }

    /// `PASSED`, `FAILED`, `INVALID`.
    package var label: String { outcome.rawValue.uppercased() }
}
