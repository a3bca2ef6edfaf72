import Foundation
import TestSupport
import Testing

@testable import VoiceLoad

@Suite("Audio continuity in the report, thresholds and merge")
struct AudioContinuityReportTests {
    /// Ten replies with audio, `stalled` of them with two stalls of 60 ms (reply_rtf 0.8), the
    /// others smooth (reply_rtf 1.1); and one turn whose reply never came.
    private func report(stalled: Int) -> RunReport {
        var turns: [TurnRecord] = (0..<10).map { index in
            var turn = GateFixtures.turn(700, client: index)
            turn.stallCount = index < stalled ? 2 : 0
            turn.stallUs = index < stalled ? 120_000 : 0
            turn.replyRTF = index < stalled ? 0.8 : 1.1
            return turn
        }
        turns.append(GateFixtures.turn(0, outcome: .timedOut))
        return GateFixtures.report(turns: turns)
    }

    private func check(_ text: String, on report: RunReport) throws -> ThresholdCheck {
        ThresholdEvaluator.evaluate(try ThresholdExpression.parse(text), on: report)
    }

    @Test("the turns with audio are counted; stall_ms is a metric over them, 0 for a smooth reply")
    func counts() throws {
        let report = report(stalled: 2)
        let counts = try #require(report.audioContinuity)
        #expect(counts.turnsWithAudio == 10 && counts.stalledTurns == 2 && counts.stalls == 4)
        #expect(counts.stalledTurnRatePercent == 20)
        #expect(counts.replyRTF.count == 10 && counts.replyRTF.min == 0.8 && counts.replyRTF.max == 1.1)
        #expect(abs((counts.replyRTF.mean ?? 0) - 1.04) < 1e-9)
        let stallMs = try #require(report.metrics["stall_ms"])
        // HDR precision: 120 ms is recorded exact to three significant digits.
        #expect(stallMs.count == 10 && stallMs.min == 0 && abs((stallMs.max ?? 0) - 120) < 0.5)
        #expect(GateFixtures.report(turns: [GateFixtures.turn(700)]).audioContinuity == nil)
    }

    @Test("thresholds: stalled_turn_rate in percent, stall_ms percentiles")
    func thresholds() throws {
        let report = report(stalled: 2)
        let rate = try check("stalled_turn_rate < 1%", on: report)
        #expect(rate.status == .failed && rate.result.measured == 20 && rate.result.unit == "%")
        #expect(try check("stalled_turn_rate <= 20", on: report).status == .passed)
        #expect(try check("stall_ms.max < 100", on: report).status == .failed)
        #expect(try check("stall_ms.mean < 100", on: report).status == .passed)
        let none = GateFixtures.report(turns: [GateFixtures.turn(0, outcome: .timedOut)])
        let invalid = try check("stalled_turn_rate < 1%", on: none)
        #expect(invalid.status == .invalid && invalid.result.reason == "no turns with agent audio")
    }

    @Test("merge adds the counts and weighs the mean reply_rtf; the result is schema-valid and round-trips")
    func merge() throws {
        let merged = try ReportMerge.merge([report(stalled: 2), report(stalled: 5)])
        let counts = try #require(merged.audioContinuity)
        #expect(counts.turnsWithAudio == 20 && counts.stalledTurns == 7 && counts.stalls == 14)
        #expect(counts.stalledTurnRatePercent == 35)
        #expect(counts.replyRTF.count == 20 && counts.replyRTF.min == 0.8)
        #expect(abs((counts.replyRTF.mean ?? 0) - (0.8 * 7 + 1.1 * 13) / 20) < 1e-9)
        #expect(merged.metrics["stall_ms"]?.count == 20)
        let data = try merged.jsonData()
        let violations = try JSONSchemaValidator.reportSchema().violations(of: data)
        #expect(violations == [], "\(violations)")
        #expect(String(decoding: data, as: UTF8.self).contains("\"stalled_turn_rate\" : 35"))
        #expect(try RunReport.decode(from: data).audioContinuity == counts)
    }

    @Test("the summary, the HTML report and the Markdown summary show it")
    func rendered() throws {
        let report = report(stalled: 2)
        let summary = SummaryTable.render(report)
        #expect(summary.contains("audio continuity: 2 of 10 replies stalled (20.0%), 4 stalls · reply_rtf min 0.800, mean 1.040"))
        #expect(summary.contains("stall_ms"))
        let html = HTMLReport.render(report)
        #expect(html.contains("Audio continuity") && html.contains("<dd>2 (20.0%)</dd>"))
        #expect(MarkdownSummary.render(report).contains("audio continuity: 2 of 10 replies stalled (20.0%)"))
    }

    @Test("turns.csv has stall_ms, stall_count and reply_rtf")
    func csvColumns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-continuity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try CSVRowWriter(directory: directory)
        var turn = GateFixtures.turn(700)
        turn.stallCount = 2
        turn.stallUs = 120_000
        turn.replyRTF = 0.8
        writer.write(turn)
        writer.close()
        let lines = try String(contentsOf: directory.appendingPathComponent("turns.csv"), encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let row = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let value = { (column: String) in header.firstIndex(of: column).map { row[$0] } }
        #expect(value("stall_ms") == "120.000" && value("stall_count") == "2" && value("reply_rtf") == "0.800")
    }
}
