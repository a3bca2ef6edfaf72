import Foundation
import Testing

@testable import VoiceLoad

@Suite("Recordings: in report.html")
struct RecordingsHTMLTests {
    @Test(
        "report.html lists each recording: its waveform with the marks, a player of its WAV by relative path, its figures; the slowest is linked under the latency chart"
    )
    func listed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-recordings-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let desk = RecordingDesk(policy: RecordPolicy(all: true), reportDirectory: directory)
        desk.callEnded(CallRecordingAudioTests.call())
        var report = ReportFixtures.richReport()
        report.recordings = await desk.finish()
        try ReportFiles.write(report, to: directory)
        let html = try String(contentsOf: directory.appendingPathComponent("report.html"), encoding: .utf8)
        let anchor = "recording-client-3-iteration-1"
        #expect(html.contains("<article class=\"recording\" id=\"\(anchor)\">"))
        #expect(html.contains("<audio controls preload=\"none\" src=\"recordings/client-3-iteration-1.wav\"></audio>"))
        #expect(html.contains("<svg class=\"waveform\""))
        for label in ["ready", "end of speech", "first audio", "stall"] { #expect(html.contains(label), "\(label)") }
        #expect(html.contains("Slowest first audio</dt><dd>120.0 ms"))
        // One click from the latency chart: the link comes right after it, before the next chart.
        let link = try #require(html.range(of: "<p class=\"slowest\"><a href=\"#\(anchor)\">"))
        let latencyChart = try #require(html.range(of: "first_audio_from_end_ms over time"))
        let sessionsChart = try #require(html.range(of: "active sessions and errors over time"))
        #expect(latencyChart.upperBound < link.lowerBound && link.upperBound < sessionsChart.lowerBound)
        #expect(!html.contains("<script"))
        // Without recordings, no section and no link.
        let plain = HTMLReport.render(ReportFixtures.richReport())
        #expect(!plain.contains("class=\"slowest\"") && !plain.contains("Recordings"))
    }

    @Test("the waveform's peaks: the loudest sample of each column, per channel")
    func peaks() {
        let wav = StereoWAV.bytes(left: [0, 16_384, 0, 0], right: [0, 0, 0, -32_768], sampleRateHz: 16_000)
        let (left, right) = RecordingView.peaks(ofStereoWAV: wav, columns: 2)
        #expect(left == [0.5, 0])
        #expect(right == [0, 1])
        #expect(RecordingView.peaks(ofStereoWAV: [1, 2, 3], columns: 2).left.isEmpty)
    }
}
