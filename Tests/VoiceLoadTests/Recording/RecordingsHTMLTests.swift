import Foundation
import Testing

@testable import VoiceLoad

@Suite("Recordings: in report.html")
struct RecordingsHTMLTests {
    /// The rich report with one recorded call (`CallRecordingAudioTests.call()`) written into `directory`.
    private static func recordedReport(in directory: URL) async throws -> RunReport {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let desk = RecordingDesk(policy: RecordPolicy(all: true), reportDirectory: directory)
        desk.callEnded(CallRecordingAudioTests.call())
        var report = ReportFixtures.richReport()
        report.recordings = await desk.finish()
        return report
    }

    @Test(
        "report.html lists each recording: its waveform with the marks, a player of its WAV by relative path, its figures; the slowest is linked under the latency chart"
    )
    func listed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-recordings-html-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await Self.recordedReport(in: directory)
        try ReportFiles.write(report, to: directory)
        let html = try String(contentsOf: directory.appendingPathComponent("report.html"), encoding: .utf8)
        let anchor = "recording-client-3-iteration-1"
        #expect(html.contains("<article class=\"recording\" id=\"\(anchor)\">"))
        #expect(html.contains("<audio controls preload=\"none\" src=\"recordings/client-3-iteration-1.wav\"></audio>"))
        #expect(html.contains("<svg class=\"waveform\""))
        for label in ["ready", "end of speech", "first audio", "stall"] { #expect(html.contains(label), "\(label)") }
        #expect(html.contains("Slowest first audio</dt><dd>120.0 ms"))
        // One click from the latency chart: the link comes right after it, before the next chart.
        let link = try #require(html.range(of: "<p class=\"slowest\"><a href=\"#\(anchor)\" "))
        let latencyChart = try #require(html.range(of: "first_audio_from_end_ms over time"))
        let sessionsChart = try #require(html.range(of: "active sessions and errors over time"))
        #expect(latencyChart.upperBound < link.lowerBound && link.upperBound < sessionsChart.lowerBound)
        // Without recordings, no section, no link and no script.
        let plain = HTMLReport.render(ReportFixtures.richReport())
        #expect(!plain.contains("class=\"slowest\"") && !plain.contains("Recordings") && !plain.contains("<script"))
    }

    @Test(
        "each mark plays its call from there: on the waveform and in a list, each carries its time and its recording; the page's one script seeks the player"
    )
    func marksSeek() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-recordings-html-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await Self.recordedReport(in: directory)
        let views = RecordingView.load(report.recordings, directory: directory)
        let view = try #require(views.first)
        let marks = try #require(view.marks?.marks)
        #expect(Set(marks.map(\.kind)) == [.ready, .speechEnd, .firstAudio, .stall])
        let html = HTMLReport.render(report, recordings: views)
        for mark in marks {
            let seek = "data-recording=\"recording-client-3-iteration-1\" data-seek-ms=\"\(String(format: "%.2f", mark.ms))\""
            // Once on the waveform (the mark's group), once in the list under it, for each mark at that time.
            let sameTime = marks.filter { $0.ms == mark.ms }.count
            #expect(html.components(separatedBy: "<g class=\"mark\" " + seek + ">").count - 1 == sameTime, "\(mark)")
            #expect(html.components(separatedBy: "<button type=\"button\" " + seek + ">").count - 1 == sameTime, "\(mark)")
        }
        let firstAudio = try #require(marks.first { $0.kind == .firstAudio })
        #expect(html.contains(">first audio (turn 1) · \(HTMLText.ms(firstAudio.ms)) ms</button>"))
        // The link under the latency chart also plays the slowest call from its slowest turn's end of speech.
        let speechEnd = try #require(marks.first { $0.kind == .speechEnd && $0.turn == 1 })
        #expect(
            html.contains(
                "<a href=\"#recording-client-3-iteration-1\" data-recording=\"recording-client-3-iteration-1\" data-seek-ms=\"\(String(format: "%.2f", speechEnd.ms))\">"
            )
        )
        // One script, inline, that moves the clicked mark's player there and plays it.
        #expect(html.components(separatedBy: "<script>").count == 2)
        #expect(html.contains("player.currentTime = Number(mark.getAttribute(\"data-seek-ms\")) / 1000;"))
        #expect(html.contains("player.play()"))
        #expect(!html.contains("src=\"http") && !html.contains("<script src"))
    }

    @Test("the waveform's peaks: the loudest sample of each column, per channel")
    func peaks() {
        let wav = StereoWAV.bytes(left: [0, 16_384, 0, 0], right: [0, 0, 0, -32_768], sampleRateHz: 16_000)
        let (left, right) = RecordingView.peaks(ofStereoWAV: wav, columns: 2)
        #expect(left == [0.5, 0])
        #expect(right == [0, 1])
        #expect(RecordingView.peaks(ofStereoWAV: [1, 2, 3], columns: 2).left.isEmpty)
    }

    @Test("the waveform's peaks: each frame in column frame × columns / frames, also with more columns than frames")
    func peaksColumns() {
        for (frames, columns) in [(1_003, 7), (5, 8), (600, 600), (1, 3)] {
            let left = (0..<frames).map { Int16(truncatingIfNeeded: ($0 * 7_919) % 65_536 - 32_768) }
            let right = (0..<frames / 2).map { Int16(truncatingIfNeeded: ($0 * 104_729) % 65_536 - 32_768) }
            let (leftPeaks, rightPeaks) = RecordingView.peaks(ofStereoWAV: StereoWAV.bytes(left: left, right: right, sampleRateHz: 16_000), columns: columns)
            // The reference: every frame to its column, one at a time.
            var expectedLeft = [Double](repeating: 0, count: columns)
            var expectedRight = [Double](repeating: 0, count: columns)
            for frame in 0..<frames {
                let column = frame * columns / frames
                expectedLeft[column] = max(expectedLeft[column], Double(abs(Int(left[frame]))) / 32_768)
                expectedRight[column] = max(expectedRight[column], frame < right.count ? Double(abs(Int(right[frame]))) / 32_768 : 0)
            }
            #expect(leftPeaks == expectedLeft, "\(frames) frames, \(columns) columns")
            #expect(rightPeaks == expectedRight, "\(frames) frames, \(columns) columns")
        }
    }
}
