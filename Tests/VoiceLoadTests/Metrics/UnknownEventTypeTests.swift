import Foundation
import TestSupport
import Testing
import WSCore

@testable import VoiceLoad

/// Unknown event types: counted by type with one example each, secrets masked, audio
/// shortened, examples and the number of types capped.
@Suite("Unknown event types")
struct UnknownEventTypeTests {
    @Test func exampleMasksSecretKeysAndShortensBase64() {
        let redactor = Redactor(secrets: ["sk-live-123456"])
        let audio = String(repeating: "QUJD", count: 40)
        let frame = WireFrame.text(
            #"{"type":"x","auth":{"api_key":"k-1","conversation_signature":"sig","token":"t"},"#
                + #""audio":"\#(audio)","note":"key sk-live-123456","n":3}"#
        )
        let example = redactor.unknownEventExample(frame)
        #expect(
            example
                == #"{"audio":"<base64, 160 characters>","auth":{"api_key":"***","conversation_signature":"***","token":"***"},"n":3,"note":"key ***","type":"x"}"#
        )
    }

    @Test func exampleIsCutToTheLimitOnOneLine() {
        let redactor = Redactor(secrets: [])
        let long = WireFrame.text("not json\n" + String(repeating: "é", count: 300))
        let example = redactor.unknownEventExample(long)
        #expect(example.utf8.count <= UnknownEventType.maxExampleBytes)
        #expect(example.hasPrefix("not json é") && example.hasSuffix("…"))
        #expect(redactor.unknownEventExample(.binary([0xFF, 0x00, 0x01])) == "binary frame, 3 bytes")
        #expect(redactor.unknownEventExample(.binary(Array(#"{"goAway":{}}"#.utf8))) == #"{"goAway":{}}"#)
    }

    @Test func recorderKeepsOneExamplePerTypeUpToTheCap() {
        let recorder = Recorder()
        var built = 0
        func example(_ text: String) -> String {
            built += 1
            return text
        }
        recorder.recordUnknownEvent(type: "a", example: example("first a"))
        recorder.recordUnknownEvent(type: "a", example: example("second a"))
        for index in 0..<(UnknownEventType.maxTypes + 5) {
            recorder.recordUnknownEvent(type: "t\(index)", example: example("t"))
        }
        let snapshot = recorder.snapshot()
        #expect(snapshot.unknownEvents == UnknownEventType.maxTypes + 7)
        #expect(snapshot.unknownEventTypes.count == UnknownEventType.maxTypes)
        #expect(snapshot.unknownEventTypes["a"] == UnknownEventType(type: "a", count: 2, example: "first a"))
        #expect(built == UnknownEventType.maxTypes, "an example is built once per kept type")
    }

    @Test func mergeSumsByTypeMostFrequentFirst() {
        let merged = UnknownEventType.merged([
            [UnknownEventType(type: "a", count: 1, example: "a1"), UnknownEventType(type: "b", count: 5, example: "b1")],
            [UnknownEventType(type: "a", count: 7, example: "a2")],
        ])
        #expect(merged == [UnknownEventType(type: "a", count: 8, example: "a1"), UnknownEventType(type: "b", count: 5, example: "b1")])
    }

    @Test func summaryAndReportNameThem() {
        var report = ReportFixtures.richReport()
        report.unknownEvents = 9
        report.unknownEventTypes = [UnknownEventType(type: "goAway", count: 4, example: #"{"goAway":{}}"#)]
        let summary = SummaryTable.render(report)
        #expect(summary.contains("unknown server events (ignored): 9"))
        #expect(summary.contains(#"  goAway ×4: {"goAway":{}}"#))
        #expect(summary.contains("  5 more of other types"))
    }

    @Test func reportJSONValidatesAndRoundTrips() throws {
        var report = ReportFixtures.richReport()
        report.unknownEvents = 4
        report.unknownEventTypes = [UnknownEventType(type: "{goAway}", count: 4, example: #"{"goAway":{"timeLeft":"5s"}}"#)]
        let data = try report.jsonData()
        #expect(try JSONSchemaValidator.reportSchema().violations(of: data) == [])
        #expect(try RunReport.decode(from: data).unknownEventTypes == report.unknownEventTypes)
        #expect(String(decoding: data, as: UTF8.self).contains("\"unknown_event_types\""))
        #expect(!String(decoding: try ReportFixtures.richReport().jsonData(), as: UTF8.self).contains("unknown_event_types"))
    }
}
