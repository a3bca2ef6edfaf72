import Testing

@testable import VoiceLoad

@Suite("The default threshold: a run given none is judged by error_rate < 1%")
struct DefaultThresholdTests {
    @Test("1 of 10 sessions failed: the default fails, marked as the default in report.json and the verdict table")
    func fails() throws {
        let report = GateFixtures.report(turns: [GateFixtures.turn(700)], sessions: 10, failed: 1)
        let checks = ThresholdEvaluator.evaluate([.defaultErrorRate], on: report)
        let check = try #require(checks.first)
        #expect(check.status == .failed && check.result.isDefault == true && check.result.measured == 10)
        #expect(RunVerdict(report: report, checks: checks).outcome == .failed)
        let lines = VerdictTable.render(checks)
        #expect(lines.contains { $0.hasPrefix("error_rate < 1% (default)") && $0.hasSuffix("FAILED") }, "\(lines)")
        let user = ThresholdEvaluator.evaluate([try ThresholdExpression.parse("error_rate < 1%")], on: report)
        #expect(user.first?.result.isDefault == nil)
    }

    @Test("none failed: it passes; no session at all: it is left out rather than making the run invalid")
    func passesOrIsLeftOut() throws {
        let clean = GateFixtures.report(turns: [GateFixtures.turn(700)], sessions: 10)
        #expect(ThresholdEvaluator.evaluate([.defaultErrorRate], on: clean).map(\.status) == [.passed])
        let empty = GateFixtures.report(turns: [], sessions: 0)
        #expect(ThresholdEvaluator.evaluate([.defaultErrorRate], on: empty).isEmpty)
        #expect(ThresholdEvaluator.evaluate([try ThresholdExpression.parse("error_rate < 1%")], on: empty).map(\.status) == [.invalid])
    }
}
