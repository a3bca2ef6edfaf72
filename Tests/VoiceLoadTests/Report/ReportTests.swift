import Foundation
import TestSupport
import Testing

@testable import VoiceLoad

@Suite("Reports")
struct ReportTests {
    private func report(
        sendLagUs: Int64 = 200,
        receiveLagUs: [Int64] = [],
        maxLagMs: Double? = nil,
        simulatorLateUs: [Int64]? = nil,
        probeFailure: String? = nil
    ) -> RunReport {
        let recorder = Recorder()
        var session = SessionRecord(client: 0, iteration: 0)
        session.connectUs = 2_000
        recorder.recordSession(session)
        recorder.recordFrameSent(lagUs: sendLagUs)
        recorder.recordReceiveLags(receiveLagUs)
        let scenario = Scenario(name: "demo", sourcePath: "demo.yaml", steps: [.connect(timeoutMs: 1)])
        var context = RunContext(
            scenario: scenario,
            load: LoadProfile(clients: 1),
            redactedURL: "ws://127.0.0.1:1/?token=REDACTED",
            dialect: "datagrid",
            metricsMeasured: MetricName.core.union(MetricName.audioReply),
            frameMs: 40,
            simulator: nil,
            startedAt: Date(timeIntervalSince1970: 0),
            endedAt: Date(timeIntervalSince1970: 2),
            cpuSeconds: 0.5,
            cores: 2
        )
        context.maxLagMs = maxLagMs
        context.receiveLagProbeFailure = probeFailure
        context.simulatorReplyLateness = simulatorLateUs.map { values in
            var histogram = LatencyHistogram()
            for value in values { histogram.record(microseconds: value) }
            return histogram
        }
        return RunReport(context: context, snapshot: recorder.snapshot())
    }

    @Test("report.json: snake_case fields, absent metrics carry only a zero count, histograms replay")
    func json() throws {
        let data = try report().jsonData()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        let connect = try #require(metrics["connect_ms"] as? [String: Any])
        #expect(connect["count"] as? Int == 1)
        #expect(connect["p50"] as? Double == 2)
        #expect(connect["low_sample"] as? Bool == true)
        let absent = try #require(metrics["first_audio_from_end_ms"] as? [String: Any])
        #expect(absent.keys.sorted() == ["count"])
        #expect(object["scenario_file"] as? String == "demo.yaml")
        #expect(try JSONSchemaValidator.reportSchema().violations(of: data) == [])
        let decoded = try RunReport.decode(from: data)
        #expect(decoded.metrics["connect_ms"]?.histogram?.histogram.count == 1)
        #expect(decoded.generator.cpuPercentOfOneCore == 25)
    }

    @Test("a report of an older version (errors without categories or examples) still reads, its categories derived")
    func olderErrors() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: ReportFixtures.richReport().jsonData()) as? [String: Any])
        object["errors"] = ["total": 3, "by_class": ["protocol_violation": 1, "connect_failed": 2]]
        let report = try RunReport.decode(from: JSONSerialization.data(withJSONObject: object))
        #expect(report.errors.byCategory == ["protocol_violation": 1, "connect": 2])
        #expect(report.errors.examples.isEmpty)
        let written = try #require(try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        let errors = try #require(written["errors"] as? [String: Any])
        #expect(errors.keys.sorted() == ["by_category", "by_class", "examples", "total"])
    }

    @Test("the generator is flagged when send lag p99 exceeds the default 2 ms bound")
    func saturation() {
        #expect(report(sendLagUs: 200).generator.healthy)
        #expect(report(sendLagUs: 200).config.maxLagMs == 2)
        let saturated = report(sendLagUs: 2_500).generator
        #expect(!saturated.healthy)
        #expect(saturated.problems == ["send_lag_ms p99 2.5 ms exceeds the 2 ms bound: audio frames left late"])
    }

    @Test("--max-lag-ms sets the bound and is recorded in the configuration")
    func lagBound() throws {
        #expect(!report(sendLagUs: 3_000).generator.healthy)
        let loose = report(sendLagUs: 3_000, maxLagMs: 5)
        #expect(loose.generator.healthy)
        #expect(loose.config.maxLagMs == 5)
        let strict = report(sendLagUs: 1_500, maxLagMs: 1)
        #expect(strict.generator.problems == ["send_lag_ms p99 1.5 ms exceeds the 1 ms bound (--max-lag-ms): audio frames left late"])
        #expect(try JSONSchemaValidator.reportSchema().violations(of: strict.jsonData()) == [])
        #expect(try RunReport.decode(from: strict.jsonData()).config.maxLagMs == 1)
    }

    @Test("receive lag is reported beside send lag and held to the same bound")
    func receiveLag() throws {
        let onTime = report(receiveLagUs: Array(repeating: 80, count: 99) + [1_900])
        #expect(onTime.generator.healthy)
        #expect(onTime.generator.receiveLagMs?.count == 100)
        #expect(SummaryTable.render(onTime).split(separator: "\n").contains { $0.hasPrefix("receive_lag_ms") })
        // One late read in 100 is the p99.
        let late = report(receiveLagUs: Array(repeating: 80, count: 98) + [31_000, 31_000])
        #expect(!late.generator.healthy)
        #expect(
            late.generator.problems == [
                "receive_lag_ms p99 31.0 ms exceeds the 2 ms bound: replies waited in the socket for a busy event loop"
            ]
        )
        #expect(try JSONSchemaValidator.reportSchema().violations(of: late.jsonData()) == [])
        #expect(try RunReport.decode(from: late.jsonData()).generator.receiveLagMs?.p99 == 31)
        let unprobed = report(probeFailure: "too many open files")
        #expect(!unprobed.generator.healthy)
        #expect(
            unprobed.generator.problems == [
                "receive_lag_ms not measured (too many open files): the run's read times cannot be vouched for"
            ]
        )
    }

    @Test("the built-in simulator's late replies are held to the lag bound, shown and schema-valid")
    func simulatorLateness() throws {
        #expect(report().generator.simulatorReplyLateMs == nil)
        let onTime = report(simulatorLateUs: [100, 300, 1_500])
        #expect(onTime.generator.healthy)
        #expect(onTime.generator.simulatorReplyLateMs?.count == 3)
        #expect(SummaryTable.render(onTime).split(separator: "\n").contains { $0.hasPrefix("simulator_reply_late_ms") })
        let late = report(simulatorLateUs: [100, 300, 3_000])
        #expect(!late.generator.healthy)
        #expect(
            late.generator.problems == [
                "simulator_reply_late_ms p99 3.0 ms exceeds the 2 ms bound: the built-in simulator shares this machine and fell behind"
            ]
        )
        #expect(try JSONSchemaValidator.reportSchema().violations(of: late.jsonData()) == [])
        #expect(try RunReport.decode(from: late.jsonData()).generator.simulatorReplyLateMs?.p99 == 3)
    }

    @Test("the summary table shows n/a for metrics without samples")
    func table() {
        let text = SummaryTable.render(report())
        #expect(text.contains("connect_ms"))
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("greeting_ms") && $0.contains("n/a") })
    }

    @Test("the summary ends with the simulator's injected faults when the run had a fault plan")
    func injectedFaults() {
        var faulted = report()
        #expect(!SummaryTable.render(faulted).contains("simulator injected"))
        faulted.simulatorFaultsInjected = ["stall": 2, "close_1011": 3, "refuse_503": 0]
        #expect(SummaryTable.render(faulted).split(separator: "\n").contains("simulator injected: close_1011 3, refuse_503 0, stall 2"))
        #expect(SummaryTable.injectedText([:]) == "nothing")
    }

    @Test("CSV fields are escaped and absent values are empty")
    func csv() {
        #expect(CSVRowWriter.escape("plain") == "plain")
        #expect(CSVRowWriter.escape("a,b") == "\"a,b\"")
        #expect(CSVRowWriter.escape("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVRowWriter.format(nil) == "")
        #expect(CSVRowWriter.format(12.34567) == "12.346")
        #expect(CSVRowWriter.milliseconds(712_500) == "712.500" && CSVRowWriter.milliseconds(1) == "0.001")
        #expect(CSVRowWriter.milliseconds(nil) == "")
    }
}
