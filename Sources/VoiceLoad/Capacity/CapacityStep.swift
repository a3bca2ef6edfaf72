import Foundation

/// One step of `vload capacity`: a closed-model run at a fixed concurrency, its SLOs judged,
/// and the verdict the search takes from it. The step's own reports are under `report`.
package struct CapacityStep: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case clients, verdict, slos, reasons, sessions, errors, generator
        case durationS = "duration_s"
        case report
        case attempt, intervals
        case withinNoise = "within_noise"
        case holdExtension = "hold_extension"
    }

    /// The 95% bootstrap interval of a percentile SLO's figure, and whether it holds the bound:
    /// then the verdict on that SLO is within the run-to-run noise, and the step is repeated once.
    package struct SLOInterval: Codable, Sendable, Hashable {
        enum CodingKeys: String, CodingKey {
            case expression
            case lowMs = "low_ms"
            case highMs = "high_ms"
            case withinNoise = "within_noise"
        }

        package var expression: String
        package var lowMs: Double
        package var highMs: Double
        package var withinNoise: Bool

        package init(expression: String, lowMs: Double, highMs: Double, withinNoise: Bool) {
            self.expression = expression
            self.lowMs = lowMs
            self.highMs = highMs
            self.withinNoise = withinNoise
        }

        /// `731–768 ms`.
        package var rangeText: String { String(format: "%.1f–%.1f ms", lowMs, highMs) }
    }

    /// A hold extended for samples (`HoldExtension`): by how much, up to what, and why it ended.
    package struct HoldRecord: Codable, Sendable, Hashable {
        enum CodingKeys: String, CodingKey {
            case extendedS = "extended_s"
            case maxHoldS = "max_hold_s"
            case outcome, shortfalls
        }

        /// Past the hold.
        package var extendedS: Double
        package var maxHoldS: Double
        package var outcome: HoldExtension.Outcome
        /// What was still short at `--max-hold` (empty when the samples sufficed).
        package var shortfalls: [String]

        package init(extendedS: Double, maxHoldS: Double, outcome: HoldExtension.Outcome, shortfalls: [String]) {
            self.extendedS = extendedS
            self.maxHoldS = maxHoldS
            self.outcome = outcome
            self.shortfalls = shortfalls
        }

        /// `hold extended 7.0 s (samples suffice)`, `hold extended 60.0 s to --max-hold 80 s: … has 14 of the 20 samples it needs`.
        package var text: String {
            let extended = "hold extended \(String(format: "%.1f", extendedS)) s"
            switch outcome {
            case .samplesSuffice: return extended + " (samples suffice)"
            case .maxHoldReached:
                return extended + " to --max-hold \(HoldExtension.seconds(Int(maxHoldS * 1_000))) s: " + shortfalls.joined(separator: "; ")
            }
        }
    }

    package struct Sessions: Codable, Sendable, Hashable {
        package var started: Int
        package var completed: Int
        package var failed: Int
    }

    package struct Generator: Codable, Sendable, Hashable {
        enum CodingKeys: String, CodingKey {
            case healthy, problems
            case sendLagP99Ms = "send_lag_p99_ms"
            case receiveLagP99Ms = "receive_lag_p99_ms"
            case cpuPercentOfOneCore = "cpu_percent_of_one_core"
        }

        package var healthy: Bool
        package var problems: [String]
        package var sendLagP99Ms: Double?
        package var receiveLagP99Ms: Double?
        package var cpuPercentOfOneCore: Double
    }

    /// Concurrent clients.
    package var clients: Int
    package var verdict: CapacitySearch.Verdict
    /// Every SLO, judged on the step after its warm-up.
    package var slos: [ThresholdResult]
    /// Why the step did not pass (empty when it did).
    package var reasons: [String]
    /// Sessions after the warm-up.
    package var sessions: Sessions
    /// Errors of the whole step, warm-up included.
    package var errors: Int
    package var generator: Generator
    package var durationS: Double
    /// The step's report.json, relative to the capacity report.
    package var report: String
    /// 1 or 2 when the step at this concurrency ran twice (its first result was within noise); nil otherwise.
    package var attempt: Int?
    /// The 95% intervals of its percentile SLOs with the samples they need (nil when none).
    package var intervals: [SLOInterval]?
    /// True when a passing or failing verdict was within the noise of an SLO (an interval holds its bound).
    package var withinNoise: Bool?
    /// Set when the hold was extended for samples.
    package var holdExtension: HoldRecord?

    package init(
        clients: Int,
        verdict: CapacitySearch.Verdict,
        slos: [ThresholdResult],
        reasons: [String],
        sessions: Sessions,
        errors: Int,
        generator: Generator,
        durationS: Double,
        report: String
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
    /// judged them), by the run's verdict (`RunVerdict`): unreachable, a saturated generator, or
    /// else any SLO that fails or cannot be judged fails the step.
    package init(clients: Int, run: RunReport, report: String) {
        let judged = RunVerdict(run)
        let reasons: [String]
        let verdict: CapacitySearch.Verdict
        switch judged.outcome {
        case .unreachable:
            verdict = .unreachable
            reasons = judged.reasons.map(\.text)
        case .invalid where !run.generator.healthy:
            verdict = .generatorUnhealthy
            reasons = judged.reasons.filter { if case .generatorSaturated = $0 { true } else { false } }.map(\.text)
        case .passed:
            verdict = .passed
            reasons = []
        case .failed, .invalid:
            verdict = .failed
            reasons =
                judged.checks.compactMap(Self.reason)
                + judged.reasons.filter { if case .noSessionCompleted = $0 { true } else { false } }.map(\.text)
        }
        let intervals = run.thresholds.compactMap { result -> SLOInterval? in
            guard let expression = try? ThresholdExpression.parse(result.expression),
                let interval = ThresholdEvaluator.interval(expression, on: run)
            else { return nil }
            return SLOInterval(
                expression: result.expression,
                lowMs: interval.lowerBound,
                highMs: interval.upperBound,
                withinNoise: interval.contains(expression.bound)
            )
        }
        self.init(
            clients: clients,
            verdict: verdict,
            slos: run.thresholds,
            reasons: reasons,
            sessions: Sessions(started: run.sessions.started, completed: run.sessions.completed, failed: run.sessions.failed),
            errors: run.errors.total,
            generator: Generator(
                healthy: run.generator.healthy,
                problems: run.generator.problems,
                sendLagP99Ms: run.generator.sendLagMs.p99,
                receiveLagP99Ms: run.generator.receiveLagMs?.p99,
                cpuPercentOfOneCore: run.generator.cpuPercentOfOneCore
            ),
            durationS: run.durationS,
            report: report
        )
        self.intervals = intervals.isEmpty ? nil : intervals
        let settled = verdict == .passed || verdict == .failed
        withinNoise = settled && intervals.contains(where: \.withinNoise) ? true : nil
    }

    /// `first_audio_from_end_ms.p95 < 750 (95%: 731–768 ms)` for each SLO whose interval holds its bound.
    package var noiseText: [String] {
        (intervals ?? []).filter(\.withinNoise).map { "\($0.expression) (95%: \($0.rangeText))" }
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
    package var line: String {
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
        if attempt == 2 { text += " (repeat)" }
        if !figures.isEmpty { text += "  " + figures.joined(separator: "  ") }
        if verdict == .generatorUnhealthy || verdict == .unreachable { text += "  — " + reasons.joined(separator: "; ") }
        if let holdExtension { text += "  — " + holdExtension.text }
        if withinNoise == true { text += "  — within noise: " + noiseText.joined(separator: "; ") }
        return text
    }
}
