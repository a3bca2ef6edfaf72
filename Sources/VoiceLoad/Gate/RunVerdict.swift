/// The verdict on a run, with its reasons: the one place that decides what a run amounts to.
/// `vload run` and `vload merge` (the exit code and the last line), the rendered reports
/// (HTML, JUnit, Markdown) and each step of `vload capacity` all read it, so none can say
/// other than another.
///
/// The order of the rule: no session reached the endpoint (unreachable); else the generator was
/// saturated or a threshold could not be judged (invalid); else a threshold failed, the
/// baseline found a regression, or no session completed (failed); else passed.
package struct RunVerdict: Sendable, Hashable {
    /// Why the run is not a pass; empty when it passed.
    package enum Reason: Sendable, Hashable {
        /// Every session failed before reaching the endpoint, with these error classes.
        case unreachable(errorClasses: [String])
        /// The generator's own lateness passed its bound: the figures are not to be trusted.
        case generatorSaturated(problems: [String])
        /// A threshold that could not be judged (no samples, or too few on both sides of its bound).
        case unjudged(ThresholdCheck)
        /// Thresholds that failed, and how many were judged.
        case thresholdsFailed(failed: [ThresholdCheck], of: Int)
        /// The run ran its course and no session completed (`no session completed (3 failed: …)`).
        case noSessionCompleted(failed: Int, errorsByClass: [String: Int])
        /// `--baseline` found a figure worse than its tolerance.
        case regression
    }

    /// The exit code's meaning.
    package var outcome: GateVerdict
    package var reasons: [Reason]
    /// The thresholds judged: `RunReport.thresholds` (none for a segment of a split run).
    package var checks: [ThresholdCheck]

    /// Judges a run from its report, the thresholds judged on it, and the baseline comparison.
    package init(report: RunReport, checks: [ThresholdCheck], regression: Bool = false) {
        self.checks = checks
        if GateVerdict.endpointUnreachable(report) {
            outcome = .unreachable
            reasons = [.unreachable(errorClasses: report.errors.byClass.keys.sorted())]
            return
        }
        var invalid: [Reason] = report.generator.healthy ? [] : [.generatorSaturated(problems: report.generator.problems)]
        invalid += checks.filter { $0.status == .invalid }.map(Reason.unjudged)
        if !invalid.isEmpty {
            (outcome, reasons) = (.invalid, invalid)
            return
        }
        var failed: [Reason] = []
        let failedChecks = checks.filter { $0.status == .failed }
        if !failedChecks.isEmpty { failed.append(.thresholdsFailed(failed: failedChecks, of: checks.count)) }
        if GateVerdict.noSessionCompleted(report) {
            failed.append(.noSessionCompleted(failed: report.sessions.failed, errorsByClass: report.errors.byClass))
        }
        if regression { failed.append(.regression) }
        (outcome, reasons) = failed.isEmpty ? (.passed, []) : (.failed, failed)
    }

    /// A report's verdict on the thresholds it recorded (no baseline).
    package init(_ report: RunReport) {
        self.init(report: report, checks: report.thresholds.map { ThresholdCheck(result: $0) })
    }
}
