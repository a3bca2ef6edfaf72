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

    /// Whether the run ran its course and not one session completed: never a pass, whatever
    /// the thresholds say (a run a signal cut short is judged by its signal instead).
    public static func noSessionCompleted(_ report: RunReport) -> Bool {
        report.sessions.started > 0 && report.sessions.completed == 0 && report.interruptedBy == nil
    }

    /// Infrastructure first, then validity, then the thresholds, the baseline and a run in
    /// which no session completed.
    public static func decide(report: RunReport, checks: [ThresholdCheck], regression: Bool = false) -> GateVerdict {
        if endpointUnreachable(report) { return .unreachable }
        if !report.generator.healthy || checks.contains(where: { $0.status == .invalid }) { return .invalid }
        if regression || checks.contains(where: { $0.status == .failed }) || noSessionCompleted(report) { return .failed }
        return .passed
    }

    /// `no session completed (50 failed: timeout_wait_ready 50)`.
    static func noSessionCompletedText(_ report: RunReport) -> String {
        let classes = report.errors.byClass.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "no session completed (\(report.sessions.failed) failed" + (classes.isEmpty ? ")" : ": \(classes))")
    }

    /// One line for the end of the run's output.
    public static func summaryLine(_ verdict: GateVerdict, report: RunReport, checks: [ThresholdCheck]) -> String {
        switch verdict {
        case .passed:
            switch checks.count {
            case 0: return "verdict: PASS (no thresholds)"
            case 1: return "verdict: PASS (1 threshold holds)"
            default: return "verdict: PASS (\(checks.count) thresholds hold)"
            }
        case .failed:
            let failed = checks.filter { $0.status == .failed }.count
            var reasons: [String] = []
            if failed > 0 { reasons.append("\(failed) of \(checks.count) thresholds failed") }
            if noSessionCompleted(report) { reasons.append(noSessionCompletedText(report)) }
            return "verdict: FAIL (" + (reasons.isEmpty ? ["regression against the baseline"] : reasons).joined(separator: "; ") + ")"
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
