import Testing

@testable import VoiceLoad

/// Percentile thresholds on fewer samples than the percentile needs: judged on every sample
/// when they all lie on one side of the bound, not judged when they straddle it.
@Suite("Few samples")
struct FewSamplesTests {
    /// 10 first-audio latencies, 600.0…800.0 ms.
    private let report = GateFixtures.report(turns: GateFixtures.latencies(count: 10).map { GateFixtures.turn($0) })

    private func check(_ text: String, on report: RunReport? = nil) throws -> ThresholdCheck {
        ThresholdEvaluator.evaluate(try ThresholdExpression.parse(text), on: report ?? self.report)
    }

    @Test("every sample above a < bound fails: exit 1, not 3")
    func allAboveFails() throws {
        let tight = try check("first_audio_from_end_ms.p95 < 1")
        #expect(tight.status == .failed && !tight.result.passed && tight.shortfall == nil)
        #expect(tight.result.reason == "10 samples: too few for p95 (needs 20), but none of the 10 is < 1 ms: p95 fails whatever it is")
        #expect(tight.line.hasPrefix("FAILED first_audio_from_end_ms.p95 < 1: measured "))
        #expect(RunVerdict(report: report, checks: [tight]).outcome == .failed)
        #expect(RunVerdict(report: report, checks: [tight]).outcome.rawValue == 1)
    }

    @Test("every sample within the bound passes, with the reason said")
    func allBelowPasses() throws {
        let loose = try check("first_audio_from_end_ms.p95 < 5000")
        #expect(loose.status == .passed && loose.result.passed)
        #expect(loose.result.reason == "10 samples: too few for p95 (needs 20), but all 10 are < 5000 ms: p95 holds whatever it is")
        #expect(RunVerdict(report: report, checks: [loose]).outcome == .passed)
        #expect(try check("first_audio_from_end_ms.p99 >= 600").status == .passed)
        #expect(try check("first_audio_from_end_ms.p50 > 800").status == .failed)
    }

    @Test("samples on both sides of the bound cannot be judged, and say what more samples would settle")
    func straddleIsInvalid() throws {
        let straddling = try check("first_audio_from_end_ms.p95 < 700")
        #expect(straddling.status == .invalid && straddling.result.status == .invalid)
        #expect(straddling.result.reason == "10 samples: too few for p95 (needs 20), on both sides of the bound (600–800 ms)")
        #expect(straddling.shortfall == SampleShortfall(expression: "first_audio_from_end_ms.p95 < 700", count: 10, needed: 20))
        #expect(straddling.shortfall?.text == "first_audio_from_end_ms.p95 < 700 has 10 of the 20 samples it needs")
        #expect(RunVerdict(report: report, checks: [straddling]).outcome == .invalid)
    }

    @Test("at the bound: exact extremes decide, < fails and <= passes on samples equal to it")
    func equality() throws {
        let flat = GateFixtures.report(turns: GateFixtures.latencies(count: 5, baseMs: 300, spreadMs: 0).map { GateFixtures.turn($0) })
        #expect(try check("first_audio_from_end_ms.p95 < 300", on: flat).status == .failed)
        #expect(try check("first_audio_from_end_ms.p95 <= 300", on: flat).status == .passed)
        #expect(try check("first_audio_from_end_ms.p95 >= 300", on: flat).status == .passed)
        #expect(try check("first_audio_from_end_ms.p95 > 300", on: flat).status == .failed)
        #expect(try check("first_audio_from_end_ms.p95 == 300", on: flat).status == .passed)
        #expect(try check("first_audio_from_end_ms.p95 != 300", on: flat).status == .failed)
        #expect(try check("first_audio_from_end_ms.p95 == 301", on: flat).status == .failed)
        // 600–800: `== 700` may or may not be a sample: not judged.
        #expect(try check("first_audio_from_end_ms.p95 == 700").status == .invalid)
        #expect(try check("first_audio_from_end_ms.p95 != 900").status == .passed)
    }

    @Test("the figure stays within the samples: the histogram's bucket may lie past the largest one")
    func measuredWithinExtremes() throws {
        // 1234.567 ms sits in a bucket whose upper end is above it.
        let odd = GateFixtures.report(turns: [GateFixtures.turn(1_000), GateFixtures.turn(1_234.567)])
        let judged = try check("first_audio_from_end_ms.p95 < 1234.6", on: odd)
        #expect(judged.status == .passed)
        #expect((judged.result.measured ?? .infinity) <= 1_234.567)
    }

    @Test("the side of the extremes, comparison by comparison")
    func sides() {
        #expect(FewSamples.side(minMs: 1, maxMs: 2, .less, 3) == .allMeet)
        #expect(FewSamples.side(minMs: 1, maxMs: 3, .less, 3) == .straddle)
        #expect(FewSamples.side(minMs: 3, maxMs: 4, .less, 3) == .noneMeet)
        #expect(FewSamples.side(minMs: 1, maxMs: 3, .lessOrEqual, 3) == .allMeet)
        #expect(FewSamples.side(minMs: 3, maxMs: 4, .greaterOrEqual, 3) == .allMeet)
        #expect(FewSamples.side(minMs: 1, maxMs: 3, .greater, 3) == .noneMeet)
        #expect(FewSamples.side(minMs: 2, maxMs: 4, .greater, 3) == .straddle)
        #expect(FewSamples.side(minMs: 1, maxMs: 2, .equal, 3) == .noneMeet)
        #expect(FewSamples.side(minMs: 1, maxMs: 2, .notEqual, 3) == .allMeet)
        #expect(FewSamples.side(minMs: 3, maxMs: 3, .notEqual, 3) == .noneMeet)
    }

    @Test("without the exact range, the report's min and max: never a wrong verdict")
    func reportExtremes() throws {
        var figures = try #require(report.metrics["first_audio_from_end_ms"])
        #expect(FewSamples.extremesMs(figures).map { [$0.minMs, $0.maxMs] } == [600, 800])
        figures.histogram = nil
        let fallback = try #require(FewSamples.extremesMs(figures))
        #expect(fallback.minMs == 600 && fallback.maxMs >= 800)
        #expect(FewSamples.extremesMs(MetricReport(nil)) == nil)
    }

    @Test("the 95% bootstrap interval of a percentile threshold, with the samples it needs")
    func interval() throws {
        let many = GateFixtures.report(turns: GateFixtures.latencies(count: 40).map { GateFixtures.turn($0) })
        let expression = try ThresholdExpression.parse("first_audio_from_end_ms.p50 < 700")
        let interval = try #require(ThresholdEvaluator.interval(expression, on: many))
        #expect(interval.contains(700) && interval.lowerBound >= 600 && interval.upperBound <= 800)
        #expect(ThresholdEvaluator.interval(expression, on: many) == interval)  // seeded: the same every time
        #expect(ThresholdEvaluator.interval(expression, on: report) == nil)  // 10 samples: too few for an interval
        #expect(ThresholdEvaluator.interval(try ThresholdExpression.parse("first_audio_from_end_ms.max < 700"), on: many) == nil)
        #expect(ThresholdEvaluator.interval(try ThresholdExpression.parse("error_rate < 1%"), on: many) == nil)
    }
}
