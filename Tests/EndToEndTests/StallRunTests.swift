import Foundation
import Testing

/// Audio continuity against faults of known truth: `vload run` against the built-in simulator
/// with `--sim-faults slow_audio:…` or `audio_gap:…`, with the default 60 ms jitter buffer.
/// Every reply is 1000 ms of audio in 40 ms chunks, paced in real time unless a fault says
/// otherwise; the turns end by event (OpenAI Realtime).
@Suite("End to end: stalls (audio continuity)", .serialized)
struct StallRunTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-stalls-\(UUID().uuidString)")

    /// Three questions per session, each answered with 1000 ms of audio.
    private func scenario() throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let say = "  - say: \(repositoryRoot())/scenarios/audio/arrival.wav\n  - wait: agent_turn_end\n"
        let yaml =
            "name: stalls\ndialect: openai-realtime\nsimulator:\n  reply_ms: 1000\n  no_greeting: true\n"
            + "steps:\n  - connect\n  - wait: ready\n" + String(repeating: say, count: 3) + "  - hangup\n"
        let path = directory.appendingPathComponent("stalls.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func run(faults: String, clients: Int, out: String) throws -> [String: Any] {
        let outcome = try VLoadProcess.runValid([
            "run", "--scenario", try scenario(), "--clients", String(clients), "--ramp-up", "1s", "--sim-faults", faults, "--out", out,
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(try schemaViolations(ofReportIn: URL(fileURLWithPath: out)) == [])
        print(outcome.stdout)
        return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any] ?? [:]
    }

    /// turns.csv as one dictionary per row.
    private func rows(in out: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: out + "/turns.csv", encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    @Test("slow_audio:0.8 on 20% of replies: the stalled turns counted equal the faults injected")
    func slowAudio() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("slow").path
        let report = try run(faults: "slow_audio:0.8=0.2/turn", clients: 7, out: out)
        let injected = (report["simulator_faults_injected"] as? [String: Int])?["slow_audio"] ?? 0
        let continuity = report["audio_continuity"] as? [String: Any] ?? [:]
        let stalled = continuity["stalled_turns"] as? Int
        print("slow_audio injected \(injected), stalled turns measured \(stalled ?? -1), continuity \(continuity)")
        #expect(continuity["turns_with_audio"] as? Int == 21)
        #expect(injected >= 2, "too few faults drawn to show anything")
        #expect(stalled == injected)
        // 25 chunks every 50 ms against a 60 ms prebuffer: chunk 6, 12, 18 and 24 each find
        // the cursor drained, and each waits 60 ms; a healthy reply never stalls.
        let rows = try rows(in: out)
        let slow = rows.filter { ($0["stall_count"].flatMap { Int($0) } ?? 0) > 0 }
        #expect(slow.count == injected)
        for row in slow {
            let stallMs = Double(row["stall_ms"] ?? "") ?? -1
            let rtf = Double(row["reply_rtf"] ?? "") ?? -1
            #expect((3...5).contains(Int(row["stall_count"] ?? "") ?? 0), "\(row)")
            #expect(stallMs >= 180 && stallMs <= 300 + 20, "\(row)")
            // 1000 ms of audio over 24 × 50 ms = 1200 ms: 0.833, within a frame of jitter.
            #expect(abs(rtf - 1_000.0 / 1_200) < 0.02, "\(row)")
        }
    }

    @Test("audio_gap:300 on every reply: one stall each, of 300 ms within one 20 ms frame")
    func audioGap() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("gap").path
        let report = try run(faults: "audio_gap:300=1/turn", clients: 3, out: out)
        let injected = (report["simulator_faults_injected"] as? [String: Int])?["audio_gap"] ?? 0
        let continuity = report["audio_continuity"] as? [String: Any] ?? [:]
        #expect(injected == 9)
        #expect(
            continuity["turns_with_audio"] as? Int == 9 && continuity["stalled_turns"] as? Int == 9 && continuity["stalls"] as? Int == 9
        )
        // Expected: the 300 ms pause − the 60 ms of audio the prebuffer held in hand + the 60 ms
        // the cursor rebuffers before the next chunk plays = 300 ms. Tolerance: one 20 ms frame
        // (arrival jitter of the first chunk and the chunk after the pause).
        for row in try rows(in: out) {
            let stallMs = Double(row["stall_ms"] ?? "") ?? -1
            print("audio_gap:300 measured stall_ms \(stallMs)")
            #expect(row["stall_count"] == "1", "\(row)")
            #expect(abs(stallMs - 300) <= 20, "\(row)")
        }
        let metric = (report["metrics"] as? [String: Any])?["stall_ms"] as? [String: Any] ?? [:]
        #expect(metric["count"] as? Int == 9)
    }
}
