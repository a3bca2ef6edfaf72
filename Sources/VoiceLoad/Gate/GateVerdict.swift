/// The verdict of a run for CI, and its exit code.
///
/// 0 every threshold passed; 1 a threshold failed (or `--baseline` found a regression);
/// 3 the run is invalid (generator saturated, or a threshold could not be judged: no samples,
/// too few for its percentile on both sides of its bound; see `FewSamples`); 4 infrastructure failure (no session got past connect, upgrade
/// or the REST step). 2, bad input, is decided before a run starts.
public enum GateVerdict: Int32, Sendable, Hashable {
    case passed = 0
    case failed = 1
    case invalid = 3
    case unreachable = 4

    /// Error classes that mean the endpoint was never reached: TCP, DNS, TLS, upgrade, REST.
    static func isInfrastructure(_ errorClass: String) -> Bool {
        switch ErrorCategory(className: errorClass) {
        case .connect?, .dns?, .tls?, .upgrade?: return true
        default: return errorClass == "timeout_connect"
        }
    }

    /// Whether every session failed before reaching the endpoint.
    public static func endpointUnreachable(_ report: RunReport) -> Bool {
        report.sessions.started > 0 && report.sessions.completed == 0
            && report.sessions.failed == report.sessions.started && !report.errors.byClass.isEmpty
            && report.errors.byClass.keys.allSatisfy(isInfrastructure)
    }

    /// Infrastructure first, then validity, then the thresholds and the baseline.
    public static func decide(report: RunReport, checks: [ThresholdCheck], regression: Bool = false) -> GateVerdict {
        if endpointUnreachable(report) { return .unreachable }
        if !report.generator.healthy || checks.contains(where: { $0.status == .invalid }) { return .invalid }
        if regression || checks.contains(where: { $0.status == .failed }) { return .failed }
        return .passed
    }

    /// One line for the end of the run's output.
    public static func summaryLine(_ verdict: GateVerdict, report: RunReport, checks: [ThresholdCheck]) -> String {
        switch verdict {
        case .passed:
            return checks.isEmpty ? "verdict: PASS (no thresholds)" : "verdict: PASS (\(checks.count) thresholds hold)"
        case .failed:
            let failed = checks.filter { $0.status == .failed }.count
            return failed == 0 ? "verdict: FAIL (regression against the baseline)" : "verdict: FAIL (\(failed) of \(checks.count) thresholds failed)"
        case .invalid:
            var why = report.generator.healthy ? [] : ["the generator was saturated (" + report.generator.problems.joined(separator: "; ") + ")"]
            why += checks.filter { $0.status == .invalid }.map { "\($0.result.expression): \($0.result.reason ?? "")" }
            return "verdict: INVALID RUN: " + why.joined(separator: "; ")
        case .unreachable:
            let classes = report.errors.byClass.keys.sorted().joined(separator: ", ")
            return "verdict: INFRASTRUCTURE FAILURE: no session reached the endpoint (\(classes))"
        }
    }
}
