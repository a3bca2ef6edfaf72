/// The verdict of a run for CI, and its exit code; `RunVerdict` decides it.
///
/// 0 every threshold passed; 1 a threshold failed (or `--baseline` found a regression);
/// 3 the run is invalid (generator saturated, or a threshold could not be judged: no samples,
/// too few for its percentile on both sides of its bound; see `FewSamples`); 4 infrastructure
/// failure (no session got past connect, upgrade or the REST step). 2, bad input, is decided
/// before a run starts.
package enum GateVerdict: Int32, Sendable, Hashable {
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
    package static func endpointUnreachable(_ report: RunReport) -> Bool {
        report.sessions.started > 0 && report.sessions.completed == 0
            && report.sessions.failed == report.sessions.started && !report.errors.byClass.isEmpty
            && report.errors.byClass.keys.allSatisfy(isInfrastructure)
    }

    /// Whether the run ran its course and not one session completed: never a pass, whatever
    /// the thresholds say (a run a signal cut short is judged by its signal instead).
    package static func noSessionCompleted(_ report: RunReport) -> Bool {
        report.sessions.started > 0 && report.sessions.completed == 0 && report.interruptedBy == nil
    }
}
