import Foundation
import Testing

@testable import VoiceLoad

/// `RunVerdict` is the one decision on a run; the CLI's last line, the rendered reports'
/// headline, junit.xml and a capacity step all read it, so they cannot disagree.
@Suite("Run verdict: one decision, read everywhere")
struct RunVerdictTests {
    private let turns = GateFixtures.latencies(count: 40).map { GateFixtures.turn($0) }

    private func judged(_ texts: [String], on report: RunReport) throws -> RunReport {
        var report = report
        report.thresholds = try texts.map { ThresholdEvaluator.evaluate(try ThresholdExpression.parse($0), on: report).result }
        return report
    }

    @Test("a saturated generator makes the run invalid, with the unjudged thresholds as further reasons")
    func saturatedAndUnjudged() throws {
        let report = try judged(
            ["first_audio_from_end_ms.p95 < 600", "first_audio_from_end_ms{label=nope}.max < 1"],
            on: GateFixtures.report(turns: turns, sendLagUs: 90_000)
        )
        let verdict = RunVerdict(report)
        #expect(verdict.outcome == .invalid)
        #expect(verdict.reasons.count == 2)
        guard case .generatorSaturated = verdict.reasons.first else {
            Issue.record("first reason: \(verdict.reasons)")
            return
        }
        #expect(verdict.summaryLine.hasPrefix("verdict: INVALID RUN: the generator was saturated (send_lag_ms p99"))
        #expect(verdict.summaryLine.hasSuffix("; first_audio_from_end_ms{label=nope}.max < 1: no turns labelled 'nope'"))
        let headline = ReportVerdict(report)
        #expect(headline.outcome == .invalid && headline.headline.hasPrefix("run invalid: the generator was saturated ("))
        let step = CapacityStep(clients: 10, run: report, report: "r.json")
        #expect(step.verdict == .generatorUnhealthy && step.reasons.count == 1)
        // junit.xml: the thresholds' cases, plus one failing case for the untrusted figures.
        let cases = JUnitReport.testCases(report)
        #expect(cases.map(\.name).last == "the run's figures can be trusted")
        #expect(cases.last?.failure?.message.hasPrefix("the generator was saturated (") == true)
    }

    @Test("thresholds that fail and a regression are both reasons of a failed run")
    func failedAndRegressed() throws {
        let report = try judged(["first_audio_from_end_ms.p95 < 600", "error_rate < 1%"], on: GateFixtures.report(turns: turns))
        let checks = report.thresholds.map { ThresholdCheck(result: $0) }
        let verdict = RunVerdict(report: report, checks: checks, regression: true)
        #expect(verdict.outcome == .failed)
        #expect(verdict.summaryLine == "verdict: FAIL (1 of 2 thresholds failed; regression against the baseline)")
        #expect(RunVerdict(report: report, checks: [], regression: true).summaryLine == "verdict: FAIL (regression against the baseline)")
        #expect(ReportVerdict(report).headline == "1 of 2 thresholds failed")
        let step = CapacityStep(clients: 10, run: report, report: "r.json")
        #expect(step.verdict == .failed)
        #expect(step.reasons.count == 1 && step.reasons[0].hasPrefix("first_audio_from_end_ms.p95 < 600: measured "))
        #expect(JUnitReport.testCases(report).count == 2)
    }

    @Test("an unreachable endpoint comes first, whatever else")
    func unreachableFirst() throws {
        let refused = GateFixtures.report(
            turns: [],
            sessions: 3,
            failed: 3,
            errors: [.connectFailed, .upgradeRejected(status: 401), .connectFailed],
            sendLagUs: 90_000
        )
        let report = try judged(["error_rate < 1%"], on: refused)
        let verdict = RunVerdict(report)
        #expect(verdict.outcome == .unreachable && verdict.outcome.rawValue == 4)
        #expect(
            verdict.summaryLine == "verdict: INFRASTRUCTURE FAILURE: no session reached the endpoint (connect_failed, upgrade_rejected_401)"
        )
        #expect(
            ReportVerdict(report).headline
                == "infrastructure failure: no session reached the endpoint (connect_failed, upgrade_rejected_401)"
        )
        #expect(CapacityStep(clients: 3, run: report, report: "r.json").verdict == .unreachable)
    }

    @Test("a threshold's status is written as before: status and passed")
    func statusEncoding() throws {
        let result = ThresholdResult(
            expression: "error_rate < 1%",
            metric: "error_rate",
            aggregation: "rate",
            comparison: "<",
            bound: 1,
            measured: nil,
            unit: "%",
            status: .invalid,
            reason: "no sessions"
        )
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains(#""status":"invalid""#) && json.contains(#""passed":false"#))
        #expect(try JSONDecoder().decode(ThresholdResult.self, from: Data(json.utf8)) == result)
        var changed = result
        changed.status = .passed
        #expect(changed.passed)
    }
}
