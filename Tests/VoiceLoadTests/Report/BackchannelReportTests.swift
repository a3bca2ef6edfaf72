import Foundation
import TestSupport
import Testing

@testable import VoiceLoad

@Suite("Backchannels in the reports, thresholds and merge")
struct BackchannelReportTests {
    /// Ten sessions of two backchannels each; the agent stopped for one in `stoppedIn` of them.
    private func report(stoppedIn: Int) -> RunReport {
        let recorder = Recorder()
        for index in 0..<10 {
            recorder.sessionStarted(client: index, iteration: 0)
            var session = SessionRecord(client: index, iteration: 0)
            session.connectUs = 2_000
            session.backchannels = Backchannels.Count(spoken: 2, stopped: index < stoppedIn ? 1 : 0)
            recorder.recordSession(session)
            recorder.recordTurn(GateFixtures.turn(700, client: index))
        }
        return GateFixtures.report(of: recorder, sessions: 10)
    }

    private func check(_ text: String, on report: RunReport) throws -> ThresholdCheck {
        ThresholdEvaluator.evaluate(try ThresholdExpression.parse(text), on: report)
    }

    @Test("the sessions' counts add up; report.json has backchannel_count and false_barge_in_rate, and none without backchannels")
    func counts() throws {
        let report = report(stoppedIn: 5)
        #expect(report.interruptions.backchannels == 20 && report.interruptions.backchannelsStopped == 5)
        #expect(report.interruptions.falseBargeInRatePercent == 25)
        let data = try report.jsonData()
        let violations = try JSONSchemaValidator.reportSchema().violations(of: data)
        #expect(violations == [], "\(violations)")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"backchannel_count\" : 20") && text.contains("\"false_barge_in_rate\" : 25"))
        #expect(try RunReport.decode(from: data).interruptions == report.interruptions)
        let plain = try GateFixtures.report(turns: [GateFixtures.turn(700)]).jsonData()
        #expect(!String(decoding: plain, as: UTF8.self).contains("backchannel"))
    }

    @Test("thresholds: false_barge_in_rate in percent; invalid without backchannels")
    func thresholds() throws {
        let report = report(stoppedIn: 5)
        let rate = try check("false_barge_in_rate < 5%", on: report)
        #expect(rate.status == .failed && rate.result.measured == 25 && rate.result.unit == "%")
        #expect(try check("false_barge_in_rate <= 25", on: report).status == .passed)
        let none = try check("false_barge_in_rate == 0", on: GateFixtures.report(turns: [GateFixtures.turn(700)]))
        #expect(none.status == .invalid && none.result.reason == "no backchannels")
    }

    @Test("merge sums the counts and recomputes the rate")
    func merge() throws {
        let merged = try ReportMerge.merge([report(stoppedIn: 0), report(stoppedIn: 10)])
        #expect(merged.interruptions.backchannels == 40 && merged.interruptions.backchannelsStopped == 10)
        #expect(merged.interruptions.falseBargeInRatePercent == 25)
        let violations = try JSONSchemaValidator.reportSchema().violations(of: try merged.jsonData())
        #expect(violations == [], "\(violations)")
    }

    @Test("the summary and the Markdown summary show it")
    func rendered() {
        let report = report(stoppedIn: 5)
        #expect(
            SummaryTable.render(report).contains("backchannels: backchannel_count 20 · the agent stopped for 5 · false_barge_in_rate 25.0%")
        )
        #expect(MarkdownSummary.render(report).contains("Backchannels: 20 · the agent stopped for 5 (false_barge_in_rate 25.0%)"))
    }

    @Test("turns.csv: each row's backchannels and those that stopped the agent; sessions.csv: the count and the rate")
    func csv() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-backchannels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try CSVRowWriter(directory: directory)
        var turn = GateFixtures.turn(700)
        turn.backchannels = 3
        turn.backchannelsStopped = 1
        writer.write(turn)
        var session = SessionRecord(client: 0, iteration: 0)
        session.backchannels = Backchannels.Count(spoken: 4, stopped: 1)
        writer.write(session)
        writer.write(SessionRecord(client: 1, iteration: 0))
        writer.close()
        let turns = try String(contentsOf: directory.appendingPathComponent("turns.csv"), encoding: .utf8).split(separator: "\n")
        #expect(turns[0].hasSuffix(",turn_end_by,backchannels,backchannels_stopped,turns_resumed"))
        #expect(turns[1].hasSuffix(",3,1,"))
        let sessions = try String(contentsOf: directory.appendingPathComponent("sessions.csv"), encoding: .utf8).split(separator: "\n")
        #expect(sessions[0].contains(",greeting_ms,backchannel_count,false_barge_in_rate,turns,attempts,"))
        #expect(sessions[1].hasSuffix(",4,25.000,0,1,,,,,,,,,,"))
        #expect(sessions[2].hasSuffix(",0,,0,1,,,,,,,,,,"))
    }
}
