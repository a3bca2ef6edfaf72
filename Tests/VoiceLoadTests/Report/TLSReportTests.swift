import Foundation
import TestSupport
import Testing

@testable import VoiceLoad

@Suite("Reports of a run with --insecure, and of connect phases")
struct TLSReportTests {
    private func insecureReport() -> RunReport {
        var report = ReportFixtures.emptyReport()
        report.config.tlsInsecure = true
        return report
    }

    @Test("config.tls_insecure is written only when verification was off, and conforms to the schema")
    func json() throws {
        let insecure = try JSONSerialization.jsonObject(with: try insecureReport().jsonData()) as? [String: Any]
        #expect((insecure?["config"] as? [String: Any])?["tls_insecure"] as? Bool == true)
        #expect(try JSONSchemaValidator.reportSchema().violations(of: try insecureReport().jsonData()) == [])
        let verified = try JSONSerialization.jsonObject(with: try ReportFixtures.emptyReport().jsonData()) as? [String: Any]
        #expect((verified?["config"] as? [String: Any])?["tls_insecure"] == nil)
    }

    @Test("the summary, HTML and Markdown say that verification was off")
    func renderings() {
        let line = "TLS certificate verification was OFF (--insecure)"
        #expect(SummaryTable.render(insecureReport()).contains(line))
        #expect(HTMLReport.render(insecureReport()).contains(line))
        #expect(MarkdownSummary.render(insecureReport()).contains(line))
        #expect(!SummaryTable.render(ReportFixtures.emptyReport()).contains("--insecure"))
    }

    @Test("merge: one insecure part makes the whole run insecure")
    func merge() throws {
        let first = ReportFixtures.emptyReport()
        let second = insecureReport()
        #expect(try ReportMerge.merge([first, second]).config.tlsInsecure == true)
        #expect(try ReportMerge.merge([first, first]).config.tlsInsecure == nil)
    }

    @Test("sessions.csv: the phases follow connect_ms, tls_ms empty for ws")
    func csv() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-phases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try CSVRowWriter(directory: directory)
        var session = SessionRecord(client: 0, iteration: 0)
        session.connectUs = 4_000
        session.connectPhases = ConnectPhases(dnsUs: 0, tcpUs: 1_500, tlsUs: nil, upgradeUs: 2_500)
        writer.write(session)
        writer.close()
        let lines = try String(contentsOf: directory.appendingPathComponent("sessions.csv"), encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains(",connect_ms,dns_ms,tcp_ms,tls_ms,upgrade_ms,") == true)
        #expect(lines.last?.hasPrefix("0,0,completed,,,4.000,0.000,1.500,,2.500,") == true)
    }

    @Test("the recorder puts each phase in its histogram; tls_ms only when there was TLS")
    func histograms() {
        let recorder = Recorder(startedAt: ReportFixtures.start)
        for (index, tlsUs) in [Int64(1_000), nil].enumerated() {
            var session = SessionRecord(client: index, iteration: 0)
            session.connectPhases = ConnectPhases(dnsUs: 500, tcpUs: 1_000, tlsUs: tlsUs, upgradeUs: 2_000)
            recorder.recordSession(session, at: ReportFixtures.at(1))
        }
        let snapshot = recorder.snapshot()
        #expect(snapshot.histograms[.dnsMs]?.count == 2 && snapshot.histograms[.tcpMs]?.count == 2)
        #expect(snapshot.histograms[.upgradeMs]?.count == 2 && snapshot.histograms[.tlsMs]?.count == 1)
    }
}
