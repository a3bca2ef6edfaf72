import Foundation
import TestSupport
import Testing

@testable import VoiceLoad

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Rendered reports")
struct RenderedReportTests {
    @Test("report.html is self-contained, deterministic, escaped, with its charts and threshold verdicts")
    func html() {
        let report = ReportFixtures.richReport()
        let html = HTMLReport.render(report)
        #expect(html == HTMLReport.render(report))
        #expect(!html.contains("<script"))
        #expect(!html.contains("src="))
        #expect(!html.contains("href="))
        #expect(!html.contains("@import"))
        #expect(html.contains("<strong>FAILED</strong> · 2 of 3 thresholds failed"))
        #expect(html.contains("greeting &lt;&amp;&gt;"))
        #expect(!html.contains("greeting <&>"))
        // two time charts and a distribution per metric with samples: connect, setup total,
        // first audio, turn duration, int_ack, send lag
        #expect(html.contains("<meta name=\"vload-charts\" content=\"8\">"))
        #expect(html.components(separatedBy: "<svg class=\"chart\"").count - 1 == 8)
        #expect(html.contains("<span class=\"fail\">FAIL</span>"))
        #expect(html.contains("6 samples: too few for p99"))
        #expect(
            html.contains(
                "<tr><td>close</td><td>closed_by_server_1011</td><td>1</td><td>at 3.900 s, client 2, iteration 0: close 1011: internal &lt;error&gt; for ***</td></tr>"
            )
        )
        #expect(html.contains("<th scope=\"col\">first example</th>"))
        #expect(!html.contains("sk-live"))
        #expect(html.contains("<title id=\"chart-active-sessions-and-errors-over-time\">"))
    }

    @Test("an empty run renders every section, its charts saying there is no data")
    func emptyHTML() {
        let html = HTMLReport.render(ReportFixtures.emptyReport())
        #expect(html.contains("<meta name=\"vload-charts\" content=\"2\">"))
        #expect(html.components(separatedBy: ">no data</text>").count - 1 == 2)
        #expect(html.contains("No thresholds were given."))
        #expect(html.contains("<strong>PASSED</strong>"))
    }

    @Test("junit.xml parses, with one test case per threshold and a failure naming bound and measured value")
    func junit() throws {
        let xml = JUnitReport.render(ReportFixtures.richReport())
        #expect(xml.contains("<testsuite name=\"vload\" tests=\"3\" failures=\"2\""))
        #expect(xml.contains("bound: &lt; 1%\nmeasured: 33.3%"))
        #if canImport(FoundationXML) || os(macOS)
        let document = try XMLDocument(xmlString: xml)
        let suite = try #require(document.rootElement()?.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "name")?.stringValue == "vload")
        let cases = suite.elements(forName: "testcase")
        #expect(cases.count == 3)
        #expect(cases.map { $0.elements(forName: "failure").count } == [0, 1, 1])
        #expect(cases[2].attribute(forName: "name")?.stringValue == "first_audio_from_end_ms{label=\"greeting <&>\"}.p99 < 400")
        #endif
    }

    @Test("junit.xml without thresholds: one test case for a clean, healthy run")
    func junitWithoutThresholds() throws {
        let clean = JUnitReport.testCases(ReportFixtures.emptyReport())
        #expect(clean.count == 1)
        #expect(clean[0].failure == nil)
        let withErrors = JUnitReport.testCases(ReportFixtures.richReport(thresholds: []))
        #expect(withErrors.count == 1)
        #expect(withErrors[0].failure?.message.contains("closed_by_server_1011 1") == true)
        #if canImport(FoundationXML) || os(macOS)
        _ = try XMLDocument(xmlString: JUnitReport.render(ReportFixtures.richReport(thresholds: [])))
        #endif
    }

    @Test("summary.md: verdict, metrics, thresholds and errors as GitHub tables")
    func markdown() {
        let text = MarkdownSummary.render(ReportFixtures.richReport())
        #expect(text.hasPrefix("## ❌ vload demo: FAILED"))
        #expect(text.contains("| `first_audio_from_end_ms` | 12\\* |"))
        #expect(text.contains("| ❌ | `error_rate < 1%` | < 1% | 33.3% |  |"))
        #expect(text.contains("| category | class | count | first example |"))
        #expect(
            text.contains(
                "| close | `closed_by_server_1011` | 1 | at 3.900 s, client 2, iteration 0: close 1011: internal &lt;error&gt; for *** |"
            )
        )
        #expect(MarkdownSummary.render(ReportFixtures.emptyReport()).hasPrefix("## ✅ vload demo: PASSED"))
    }

    @Test("the summary table groups errors by category, each class with its first example indented below it")
    func summaryErrors() throws {
        let lines = SummaryTable.render(ReportFixtures.richReport()).split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "errors by category:"))
        #expect(
            Array(lines[(start + 1)...(start + 3)]) == [
                "  close 1",
                "    closed_by_server_1011 1",
                "      first: at 3.900 s, client 2, iteration 0: close 1011: internal <error> for ***",
            ]
        )
        #expect(!SummaryTable.render(ReportFixtures.emptyReport()).contains("errors by category"))
    }

    @Test("every report the tests build validates against schemas/report.schema.json")
    func schema() throws {
        let validator = try JSONSchemaValidator.reportSchema()
        var warmedUp = ReportFixtures.richReport()
        warmedUp.warmup = WarmupReport(durationS: 5, excludedSessions: 3, excludedTurns: 4)
        var faulted = ReportFixtures.richReport()
        faulted.simulatorFaultsInjected = ["close_1011": 3, "refuse_503": 2, "stall": 0]
        for report in [
            ReportFixtures.richReport(), ReportFixtures.richReport(thresholds: []), ReportFixtures.emptyReport(), warmedUp, faulted,
        ] {
            let data = try report.jsonData()
            #expect(try validator.violations(of: data) == [])
            #expect(try validator.violations(of: RunReport.decode(from: data).jsonData()) == [])
        }
        let data = try faulted.jsonData()
        #expect(try RunReport.decode(from: data).simulatorFaultsInjected == ["close_1011": 3, "refuse_503": 2, "stall": 0])
        #expect(String(decoding: data, as: UTF8.self).contains("\"simulator_faults_injected\""))
        #expect(!String(decoding: try ReportFixtures.richReport().jsonData(), as: UTF8.self).contains("simulator_faults_injected"))
    }

    @Test("the validator catches missing fields, wrong types and unknown properties")
    func schemaViolations() throws {
        let validator = try JSONSchemaValidator.reportSchema()
        let data = try ReportFixtures.richReport().jsonData()
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object.removeValue(forKey: "generator")
        object["duration_s"] = "long"
        object["surprise"] = 1
        var timeline = try #require(object["timeline"] as? [[String: Any]])
        timeline[0]["active_sessions"] = 1.5
        object["timeline"] = timeline
        let problems = try validator.violations(of: JSONSerialization.data(withJSONObject: object))
        #expect(problems.contains("$: missing generator"))
        #expect(problems.contains { $0.hasPrefix("$.duration_s: expected") })
        #expect(problems.contains("$: unexpected property surprise"))
        #expect(problems.contains { $0.hasPrefix("$.timeline[0].active_sessions: expected") })
    }

    @Test("the three files are written next to report.json")
    func files() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try ReportFiles.write(ReportFixtures.richReport(), to: directory)
        for name in ReportFiles.names {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path))
        }
    }
}
