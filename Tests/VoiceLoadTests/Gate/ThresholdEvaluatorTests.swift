import Testing

@testable import VoiceLoad

@Suite("Threshold evaluation")
struct ThresholdEvaluatorTests {
    private let report = GateFixtures.report(
        turns: GateFixtures.latencies(count: 40).map { GateFixtures.turn($0) }
            + GateFixtures.latencies(count: 10, baseMs: 300, spreadMs: 0).map { GateFixtures.turn($0, label: "short") }
            + [GateFixtures.turn(0, outcome: .prematureResponse)],
        sessions: 10,
        failed: 1,
        errors: [.timeout(step: "wait_agent_turn_end")]
    )

    private func check(_ text: String) throws -> ThresholdCheck {
        ThresholdEvaluator.evaluate(try ThresholdExpression.parse(text), on: report)
    }

    @Test("a bound that holds passes; a tighter one fails naming the bound and the figure")
    func passAndFail() throws {
        let holding = try check("first_audio_from_end_ms.p95 < 900")
        #expect(holding.status == .passed)
        #expect(holding.result.passed)
        let tight = try check("first_audio_from_end_ms.p95 < 600")
        #expect(tight.status == .failed)
        #expect(!tight.result.passed)
        #expect((tight.result.measured ?? 0) > 600)
        #expect(tight.line.hasPrefix("FAILED first_audio_from_end_ms.p95 < 600: measured "))
        #expect(tight.line.hasSuffix(" ms"))
    }

    @Test("per label, rates and counts")
    func labelsRatesCounts() throws {
        // HDR precision: 300 ms is recorded exact to three significant digits.
        let short = try check("first_audio_from_end_ms{label=short}.max <= 301ms")
        #expect(short.result.measured.map { abs($0 - 300) < 0.5 } == true)
        #expect(short.status == .passed)
        let errors = try check("error_rate < 5%")
        #expect(errors.result.measured == 10)
        #expect(errors.status == .failed)
        let premature = try check("premature_response_rate <= 2")
        #expect(premature.result.measured.map { abs($0 - 100.0 / 51) < 0.01 } == true)
        #expect(premature.status == .passed)
        #expect(try check("turns >= 51").status == .passed)
        #expect(try check("errors == 0").status == .failed)
        #expect(try check("first_audio_from_end_ms.count >= 50").status == .passed)
        #expect(try check("first_audio_from_end_ms.rate == 5").status == .passed)
    }

    @Test("too few samples for a percentile on both sides of the bound, or none, make the run invalid")
    func invalid() throws {
        let p99 = try check("first_audio_from_end_ms.p99 < 700")
        #expect(p99.status == .invalid)
        #expect(p99.result.reason == "50 samples: too few for p99 (needs 100), on both sides of the bound (300–800 ms)")
        // Too few too, but every one on one side of the bound: judged on every sample.
        #expect(try check("first_audio_from_end_ms.p99 < 5000").status == .passed)
        let labelled = try check("first_audio_from_end_ms{label=short}.p50 < 300")
        #expect(labelled.status == .failed)
        #expect(try check("int_ack_ms.mean < 100").result.reason == "no samples")
        #expect(try check("missed_interruption_rate == 0").result.reason == "no barge-ins")
        #expect(try check("first_audio_from_end_ms{label=nope}.max < 1").status == .invalid)
        let checks = [try check("first_audio_from_end_ms.p95 < 600"), p99]
        #expect(RunVerdict(report: report, checks: checks).outcome == .invalid)
    }

    @Test("exit codes: pass 0, fail 1, invalid 3, unreachable 4")
    func verdicts() throws {
        let pass = try check("first_audio_from_end_ms.p95 < 900")
        let fail = try check("first_audio_from_end_ms.p95 < 600")
        #expect(RunVerdict(report: report, checks: [pass]).outcome == .passed)
        #expect(RunVerdict(report: report, checks: [pass, fail]).outcome.rawValue == 1)
        #expect(RunVerdict(report: report, checks: [pass], regression: true).outcome == .failed)
        let saturated = GateFixtures.report(turns: [], sendLagUs: 90_000)
        #expect(RunVerdict(report: saturated, checks: []).outcome.rawValue == 3)
        let refused = GateFixtures.report(
            turns: [],
            sessions: 3,
            failed: 3,
            errors: Array(repeating: .connectFailed, count: 2) + [.upgradeRejected(status: 401)]
        )
        #expect(RunVerdict(report: refused, checks: [fail]).outcome.rawValue == 4)
        // Some reached the endpoint, none completed: never a pass, with or without thresholds.
        let halfway = GateFixtures.report(turns: [], sessions: 3, failed: 3, errors: [.connectFailed, .inBandError(code: nil)])
        #expect(RunVerdict(report: halfway, checks: []).outcome == .failed)
        #expect(
            RunVerdict(report: halfway, checks: []).summaryLine
                == "verdict: FAIL (no session completed (3 failed: connect_failed 1, in_band_error 1))"
        )
        #expect(ReportVerdict(halfway).headline == "no session completed (3 failed: connect_failed 1, in_band_error 1)")
        #expect(RunVerdict(report: halfway, checks: [pass]).outcome == .failed)
        // A pass counts its thresholds in words that agree with the count.
        #expect(RunVerdict(report: report, checks: []).summaryLine == "verdict: PASS (no thresholds)")
        #expect(RunVerdict(report: report, checks: [pass]).summaryLine == "verdict: PASS (1 threshold holds)")
        #expect(RunVerdict(report: report, checks: [pass, pass]).summaryLine == "verdict: PASS (2 thresholds hold)")
    }

    @Test("the verdict table lists every threshold and names the failures")
    func table() throws {
        let lines = VerdictTable.render([try check("first_audio_from_end_ms.p95 < 900"), try check("error_rate < 5%")])
        #expect(lines.first == "thresholds:")
        #expect(lines.contains { $0.hasPrefix("error_rate < 5%") && $0.contains("10 %") && $0.hasSuffix("FAILED") })
        #expect(lines.last == "FAILED error_rate < 5%: measured 10 %")
    }
}
