import Foundation
import TestSupport
import Testing

@testable import VoiceLoad

@Suite("Recordings: in report.json")
struct RecordingReportTests {
    static let summary = RecordingSummary(
        policy: "worst:5,failed",
        capBytes: 200_000_000,
        bytes: 64_044,
        leftOut: 1,
        calls: [
            RecordingSummary.Call(
                wav: "recordings/client-3-iteration-1.wav",
                marks: "recordings/client-3-iteration-1.json",
                client: 3,
                iteration: 1,
                reasons: ["worst"],
                durationMs: 1_000,
                outcome: "completed",
                slowestFirstAudioFromEndMs: 120,
                bytes: 64_044
            )
        ]
    )

    @Test("report.json's recordings validate against the schema and read back the same")
    func schema() throws {
        var report = ReportFixtures.richReport()
        report.recordings = Self.summary
        let data = try report.jsonData()
        #expect(try JSONSchemaValidator.reportSchema().violations(of: data) == [])
        #expect(try RunReport.decode(from: data).recordings == Self.summary)
        #expect(!String(decoding: try ReportFixtures.richReport().jsonData(), as: UTF8.self).contains("\"recordings\""))
    }
}
