import Foundation

/// One step of `vload capacity`: a closed-model run at a fixed concurrency, its SLOs judged,
/// and the verdict the search takes from it. The step's own reports are under `report`.
public struct CapacityStep: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case clients, verdict, slos, reasons, sessions, errors, generator, durationS = "duration_s", report
    }

    public struct Sessions: Codable, Sendable, Hashable {
        public var started: Int
        public var completed: Int
        public var failed: Int
    }

    public struct Generator: Codable, Sendable, Hashable {
        enum CodingKeys: String, CodingKey {
            case healthy, problems, sendLagP99Ms = "send_lag_p99_ms", cpuPercentOfOneCore = "cpu_percent_of_one_core"
        }

        public var healthy: Bool
        public var problems: [String]
        public var sendLagP99Ms: Double?
        public var cpuPercentOfOneCore: Double
    }

    /// Concurrent clients.
    public var clients: Int
    public var verdict: CapacitySearch.Verdict
    /// Every SLO, judged on the step after its warm-up.
    public var slos: [ThresholdResult]
    /// Why the step did not pass (empty when it did).
    public var reasons: [String]
    /// Sessions after the warm-up.
    public var sessions: Sessions
    /// Errors of the whole step, warm-up included.
    public var errors: Int
    public var generator: Generator
    public var durationS: Double
    /// The step's report.json, relative to the capacity report.
    public var report: String

    public init(
        clients: Int, verdict: CapacitySearch.Verdict, slos: [ThresholdResult], reasons: [String], sessions: Sessions,
        errors: Int, generator: Generator, durationS: Double, report: String
    ) {
        self.clients = clients
        self.verdict = verdict
        self.slos = slos
        self.reasons = reasons
        self.sessions = sessions
        self.errors = errors
        self.generator = generator
        self.durationS = durationS
        self.report = report
    }

    /// A step judged from its run's report, whose `thresholds` hold the SLOs (`LoadRun.execute`
    /// judged them), by the gate's rule: unreachable first, then an unhealthy generator, then the
    /// SLOs: one that fails or cannot be judged fails the step.
    public init(clients: Int, run: RunReport, report: String) {
        let checks = run.thresholds.map(ThresholdCheck.init(result:))
        let reasons: [String]
        let verdict: CapacitySearch.Verdict
        switch GateVerdict.decide(report: run, checks: checks) {
        case .unreachable:
            verdict = .unreachable
            reasons = ["no session reached the endpoint (" + run.errors.byClass.keys.sorted().joined(separator: ", ") + ")"]
        case .invalid where !run.generator.healthy:
            verdict = .generatorUnhealthy
            reasons = ["the generator was saturated: " + run.generator.problems.joined(separator: "; ")]
        case .passed:
            verdict = .passed
            reasons = []
        case .failed, .invalid:
            verdict = .failed
            reasons = checks.compactMap(Self.reason)
        }
        self.init(
            clients: clients, verdict: verdict, slos: run.thresholds, reasons: reasons,
            sessions: Sessions(started: run.sessions.started, completed: run.sessions.completed, failed: run.sessions.failed),
            errors: run.errors.total,
            generator: Generator(
                healthy: run.generator.healthy, problems: run.generator.problems, sendLagP99Ms: run.generator.sendLagMs.p99,
                cpuPercentOfOneCore: run.generator.cpuPercentOfOneCore
            ),
            durationS: run.durationS, report: report
        )
    }

    /// `first_audio_from_end_ms.p95 < 750: measured 933.3 ms`, or `… cannot be judged: no samples`.
    private static func reason(_ check: ThresholdCheck) -> String? {
        switch check.status {
        case .passed: return nil
        case .failed: return "\(check.result.expression): measured \(check.measuredText)"
        case .invalid: return "\(check.result.expression) cannot be judged: \(check.result.reason ?? "no figure")"
        }
    }

    /// The line printed as the step finishes:
    /// `   120 clients  PASS  [first_audio_from_end_ms.p95 < 750: 746.7 ms ✓]  [error_rate < 1%: 0 % ✓]`.
    public var line: String {
        let label: String
        switch verdict {
        case .passed: label = "PASS"
        case .failed: label = "FAIL"
        case .generatorUnhealthy: label = "GENERATOR SATURATED"
        case .unreachable: label = "UNREACHABLE"
        }
        let figures = slos.map { result -> String in
            let check = ThresholdCheck(result: result)
            switch check.status {
            case .passed: return "[\(result.expression): \(check.measuredText) ✓]"
            case .failed: return "[\(result.expression): \(check.measuredText) ✗]"
            case .invalid: return "[\(result.expression): cannot be judged, \(result.reason ?? "no figure")]"
            }
        }
        var text = String(repeating: " ", count: max(0, 6 - String(clients).count)) + "\(clients) clients  \(label)"
        if !figures.isEmpty { text += "  " + figures.joined(separator: "  ") }
        if verdict == .generatorUnhealthy || verdict == .unreachable { text += "  — " + reasons.joined(separator: "; ") }
        return text
    }
}
