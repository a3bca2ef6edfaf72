import Testing

@testable import VoiceLoad

@Suite("Report comparison")
struct ReportComparisonTests {
    private func report(scale: Double, count: Int = 200) -> RunReport {
        GateFixtures.report(turns: GateFixtures.latencies(count: count, scale: scale).map { GateFixtures.turn($0) })
    }

    private func firstAudio(_ comparison: ReportComparison) -> [ReportComparison.Row] {
        comparison.rows.filter { $0.metric == MetricName.firstAudioFromEndMs.rawValue && $0.label == nil }
    }

    @Test("identical histograms: no regression")
    func identical() {
        let comparison = ReportComparison(baseline: report(scale: 1), current: report(scale: 1))
        #expect(firstAudio(comparison).map(\.percentile) == ["p50", "p90", "p95", "p99"])
        #expect(comparison.regressions.isEmpty)
        #expect(comparison.rows.allSatisfy { $0.verdict == .unchanged || $0.verdict == .lowSample })
        #expect(firstAudio(comparison).allSatisfy { $0.verdict == .unchanged && $0.changePercent == 0 })
    }

    @Test("20% slower: a regression on every percentile, overall and per label")
    func shifted() {
        let comparison = ReportComparison(baseline: report(scale: 1), current: report(scale: 1.2))
        #expect(firstAudio(comparison).allSatisfy { $0.verdict == .regression })
        #expect(comparison.regressions.contains { $0.label == "a" })
        #expect(ComparisonTable.render(comparison).contains("REGRESSION first_audio_from_end_ms.p95"))
        let faster = ReportComparison(baseline: report(scale: 1.2), current: report(scale: 1))
        #expect(faster.regressions.isEmpty)
        #expect(firstAudio(faster).allSatisfy { $0.verdict == .improvement })
    }

    @Test("a change within one audio frame is noise, however large in percent (connect_ms 9 → 15 ms)")
    func noiseFloor() {
        let fast = GateFixtures.report(turns: GateFixtures.latencies(count: 200, baseMs: 9, spreadMs: 1).map { GateFixtures.turn($0) })
        let slower = GateFixtures.report(turns: GateFixtures.latencies(count: 200, baseMs: 15, spreadMs: 1).map { GateFixtures.turn($0) })
        let comparison = ReportComparison(baseline: fast, current: slower)
        #expect(comparison.noiseFloorMs == 40)
        #expect(!firstAudio(comparison).isEmpty && firstAudio(comparison).allSatisfy { $0.changePercent > 50 && $0.verdict == .unchanged })
    }

    @Test("2% slower with a 10% tolerance: no regression")
    func withinTolerance() {
        let comparison = ReportComparison(baseline: report(scale: 1), current: report(scale: 1.02), tolerancePercent: 10)
        #expect(comparison.regressions.isEmpty)
        #expect(firstAudio(comparison).allSatisfy { $0.changePercent > 1 && $0.changePercent < 3 })
    }

    @Test("fewer than 20 samples are flagged, never a regression")
    func smallSamples() {
        let comparison = ReportComparison(baseline: report(scale: 1, count: 10), current: report(scale: 2, count: 10))
        #expect(comparison.regressions.isEmpty)
        #expect(firstAudio(comparison).allSatisfy { $0.verdict == .lowSample })
    }

    @Test("the bootstrap is deterministic for a seed")
    func deterministic() throws {
        let histogram = try #require(report(scale: 1).metrics["first_audio_from_end_ms"]?.histogram?.histogram)
        let bootstrap = PercentileBootstrap(histogram)
        #expect(bootstrap.count == 200)
        let first = bootstrap.intervals([50, 95], resamples: 300, seed: 7)
        #expect(first == bootstrap.intervals([50, 95], resamples: 300, seed: 7))
        #expect(first[0].contains(try #require(bootstrap.point(50))))
    }
}
