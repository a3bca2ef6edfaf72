import Foundation
import Testing

@testable import VoiceLoad

@Suite("Recordings: the desk and its cap")
struct RecordingDeskTests {
    typealias Fixture = RecordingFixture

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vload-recordings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("every chosen call is a WAV and its marks in recordings/; past the cap a call is left out and counted")
    func cap() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let call = CallRecordingAudioTests.call()
        let size = CallRecordingAudio.wavBytes(of: call)
        #expect(size == StereoWAV.headerBytes + 16_000 * 4)
        let desk = RecordingDesk(policy: RecordPolicy(all: true), capBytes: 2 * size + size / 2, reportDirectory: directory)
        for client in 0..<3 {
            var other = call
            other.recording = CallRecording(client: client, iteration: 0)
            other.recording.connectStarted(at: Fixture.at(0))
            desk.callEnded(client == 0 ? call : other)
        }
        let summary = await desk.finish()
        #expect(summary.calls.count == 2)
        #expect(summary.leftOut == 1)
        #expect(summary.bytes == 2 * size)
        #expect(summary.policy == "all")
        for entry in summary.calls {
            let wav = try Data(contentsOf: directory.appendingPathComponent(entry.wav))
            #expect(wav.count == entry.bytes)
            let marks = try JSONDecoder().decode(CallMarks.self, from: Data(contentsOf: directory.appendingPathComponent(entry.marks)))
            #expect(marks.reasons == ["all"])
            #expect(marks.durationMs == 1_000)
        }
        #expect(
            summary.line(directory: "out") == "recordings (all): 2 calls, 0.1 MB in out/recordings/ (cap 0.2 MB; 1 left out by the cap)"
        )
    }

    @Test("worst:N writes the slowest when the run ends, slowest first in the summary")
    func worstAtTheEnd() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let desk = RecordingDesk(policy: RecordPolicy(worstCount: 2), reportDirectory: directory)
        for (client, firstAudioMs) in [(0, 100), (1, 300), (2, 200)] as [(Int, Int64)] {
            desk.callEnded(Fixture.call(client: client, firstAudioMs: firstAudioMs))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("recordings").path))
        let summary = await desk.finish()
        #expect(summary.calls.map(\.client) == [1, 2])
        #expect(summary.calls.map(\.slowestFirstAudioFromEndMs) == [300, 200])
        #expect(summary.calls.allSatisfy { $0.reasons == ["worst"] })
    }
}
