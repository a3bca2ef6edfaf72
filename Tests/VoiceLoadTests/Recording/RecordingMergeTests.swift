import Foundation
import Testing

@testable import VoiceLoad

@Suite("Recordings: gathered by vload merge")
struct RecordingMergeTests {
    private static func call(_ client: Int, _ firstAudioMs: Double?, _ reasons: [String], bytes: Int = 100) -> RecordingSummary.Call {
        RecordingSummary.Call(
            wav: "recordings/client-\(client)-iteration-0.wav",
            marks: "recordings/client-\(client)-iteration-0.json",
            client: client,
            iteration: 0,
            reasons: reasons,
            durationMs: 1_000,
            outcome: reasons.contains("failed") ? "failed" : "completed",
            slowestFirstAudioFromEndMs: firstAudioMs,
            bytes: bytes
        )
    }

    private static func part(_ calls: [RecordingSummary.Call], policy: String = "worst:2,failed", capBytes: Int = 1_000, leftOut: Int = 0)
        -> RecordingSummary
    {
        RecordingSummary(policy: policy, capBytes: capBytes, bytes: calls.map(\.bytes).reduce(0, +), leftOut: leftOut, calls: calls)
    }

    @Test("worst:N of the whole run from the parts' worst, every failed call of every part, slowest first")
    func worstAndFailed() throws {
        let first = Self.part([Self.call(0, 900, ["worst"]), Self.call(4, 500, ["worst"]), Self.call(8, 100, ["failed"])])
        let second = Self.part([Self.call(1, 950, ["worst"]), Self.call(5, 400, ["worst"]), Self.call(9, nil, ["failed"])])
        let (summary, picks) = try #require(try RecordingMerge.select([first, second], names: ["a", "b"]))
        #expect(summary.calls.map(\.client) == [1, 0, 8, 9])
        #expect(summary.calls.map(\.reasons) == [["worst"], ["worst"], ["failed"], ["failed"]])
        #expect(summary.bytes == 400 && summary.leftOut == 0 && summary.policy == "worst:2,failed" && summary.capBytes == 1_000)
        #expect(picks.map(\.part).sorted() == [0, 0, 1, 1])
        #expect(summary.calls.first?.wav == "recordings/client-1-iteration-0.wav")
    }

    @Test("a failed call among the slowest keeps its place, as in a run: the worst N count it")
    func failedAmongWorst() throws {
        let first = Self.part([Self.call(0, 900, ["failed"]), Self.call(2, 800, ["worst"])])
        let second = Self.part([Self.call(1, 850, ["worst"]), Self.call(3, 700, ["worst"])])
        let (summary, _) = try #require(try RecordingMerge.select([first, second], names: ["a", "b"]))
        #expect(summary.calls.map(\.client) == [0, 1])
        #expect(summary.calls.map(\.reasons) == [["failed"], ["worst"]])
    }

    @Test("the cap: the smallest of the parts'; the failed first, then the worst, slowest first; the parts' left-outs add up")
    func cap() throws {
        let first = Self.part([Self.call(0, 900, ["worst"]), Self.call(8, 10, ["failed"])], capBytes: 300, leftOut: 1)
        let second = Self.part([Self.call(1, 950, ["worst"]), Self.call(9, 20, ["failed"])], capBytes: 350)
        let (summary, _) = try #require(try RecordingMerge.select([first, second], names: ["a", "b"]))
        // 300 bytes: the two failed calls, then the slowest (client 1); client 0 would pass the cap.
        #expect(summary.capBytes == 300)
        #expect(summary.calls.map(\.client) == [1, 9, 8])
        #expect(summary.bytes == 300 && summary.leftOut == 2)
    }

    @Test("parts that recorded with other policies, or none, are not one run; none at all records none")
    func policies() throws {
        let worst = Self.part([Self.call(0, 900, ["worst"])])
        let all = Self.part([Self.call(1, 900, ["all"])], policy: "all")
        #expect(throws: InputError.self) { try RecordingMerge.select([worst, all], names: ["a", "b"]) }
        do {
            _ = try RecordingMerge.select([worst, nil], names: ["a", "b"])
            Issue.record("a part without recordings was merged with one that has them")
        } catch {
            #expect(error.message == "b recorded no calls (--record none), a with --record worst:2,failed: not parts of one run")
        }
        #expect(try RecordingMerge.select([nil, nil], names: ["a", "b"]) == nil)
    }

    @Test("whole runs merged may share file names: those go under recordings/part-K/")
    func collidingNames() throws {
        let first = Self.part([Self.call(0, 900, ["all"])], policy: "all")
        let second = Self.part([Self.call(0, 800, ["all"]), Self.call(1, 700, ["all"])], policy: "all")
        let (summary, _) = try #require(try RecordingMerge.select([first, second], names: ["a", "b"]))
        #expect(
            summary.calls.map(\.wav) == [
                "recordings/part-1/client-0-iteration-0.wav", "recordings/part-2/client-0-iteration-0.wav",
                "recordings/client-1-iteration-0.wav",
            ]
        )
        #expect(summary.calls[0].marks == "recordings/part-1/client-0-iteration-0.json")
    }

    @Test("the kept files are copied beside the merged report, and its report.html lists them; a part's missing files are counted")
    func copied() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vload-recording-merge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // Two whole runs (not segments) that each recorded the same caller: their files share a name.
        var parts: [RecordingSummary] = []
        for index in 0..<2 {
            let directory = root.appendingPathComponent("part-\(index)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let desk = RecordingDesk(policy: RecordPolicy(all: true), reportDirectory: directory)
            desk.callEnded(CallRecordingAudioTests.call())
            parts.append(await desk.finish())
        }
        let (summary, picks) = try #require(try RecordingMerge.select(parts, names: ["a", "b"]))
        let merged = root.appendingPathComponent("merged")
        let partDirectories = ["part-0", "part-1"].map { root.appendingPathComponent($0) }
        let copied = try RecordingMerge.copy(picks, summary: summary, from: partDirectories, to: merged)
        #expect(copied.missing == 0 && copied.summary == summary && summary.calls.count == 2)
        for call in summary.calls {
            let wav = try Data(contentsOf: merged.appendingPathComponent(call.wav))
            #expect(wav.count == call.bytes)
            #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent(call.marks).path))
        }
        var report = ReportFixtures.richReport()
        report.recordings = copied.summary
        try ReportFiles.write(report, to: merged)
        let html = try String(contentsOf: merged.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(summary.calls.map(\.wav) == ["recordings/part-1/client-3-iteration-1.wav", "recordings/part-2/client-3-iteration-1.wav"])
        #expect(html.contains("id=\"recording-part-1-client-3-iteration-1\"") && html.contains("id=\"recording-part-2-client-3-iteration-1\""))
        #expect(html.contains("src=\"recordings/part-2/client-3-iteration-1.wav\""))
        // A part whose recordings/ did not travel with its report.json: its picks are left out and counted.
        try FileManager.default.removeItem(at: partDirectories[1].appendingPathComponent("recordings"))
        let again = try RecordingMerge.copy(picks, summary: summary, from: partDirectories, to: root.appendingPathComponent("again"))
        #expect(again.missing == 1 && again.summary.calls.map(\.wav) == ["recordings/part-1/client-3-iteration-1.wav"])
        #expect(again.summary.bytes == summary.bytes - summary.calls[1].bytes)
    }
}
