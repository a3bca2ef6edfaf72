import Foundation
import Testing
import VoiceLoad

/// Live progress and the metrics endpoint, through the `vload` binary with stdout on a pipe
/// (off a terminal: log lines).
@Suite("End to end: live progress and metrics endpoint")
struct LiveProgressRunTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-live-\(UUID().uuidString)")

    private func vload(_ arguments: [String]) throws -> VLoadProcess.Outcome {
        try VLoadProcess.run(arguments)
    }

    /// Four clients of a short call (`ShortCall`) against the simulator, plus `extra`.
    private func run(_ name: String, _ extra: [String]) throws -> VLoadProcess.Outcome {
        try VLoadProcess.runValid(
            [
                "run", "--scenario", ShortCall.scenarioPath, "--clients", "4", "--sim-reply-speed", "4",
                "--out", directory.appendingPathComponent(name).path,
            ] + ShortCall.simulatorArguments + extra
        )
    }

    private func progressLines(_ outcome: VLoadProcess.Outcome) -> [Substring] {
        outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("progress ") }
    }

    @Test("off a terminal a run prints progress log lines, the last one with every session done; --quiet prints none")
    func progress() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let loud = try run("loud", [])
        #expect(loud.status == 0, "\(loud.stdout)\n\(loud.stderr)")
        let lines = progressLines(loud)
        #expect(!lines.isEmpty, "\(loud.stdout)")
        #expect(lines.last?.contains(" sessions=4/4 failed=0 ") == true, "\(lines)")
        #expect(lines.last?.contains(" active=0 ") == true, "\(lines)")

        let quiet = try run("quiet", ["--quiet", "--metrics-port", "0"])
        #expect(quiet.status == 0, "\(quiet.stdout)\n\(quiet.stderr)")
        #expect(progressLines(quiet).isEmpty, "\(quiet.stdout)")
        #expect(quiet.stdout.contains("metrics: http://127.0.0.1:"), "\(quiet.stdout)")
    }

    @Test("--metrics-port out of range or already in use: one line on stderr, exit 2")
    func badPort() async throws {
        let outOfRange = try run("range", ["--metrics-port", "70000"])
        #expect(outOfRange.status == 2)
        #expect(outOfRange.stderr.contains("--metrics-port"), "\(outOfRange.stderr)")

        let taken = try await MetricsServer.start(host: "127.0.0.1", port: 0) { [] }
        let inUse = try run("in-use", ["--metrics-port", String(taken.port)])
        await taken.stop()
        #expect(inUse.status == 2)
        #expect(
            inUse.stderr.hasPrefix("vload: error: --metrics-port \(taken.port): cannot listen on 127.0.0.1:\(taken.port)"),
            "\(inUse.stderr)"
        )
        #expect(inUse.stderr.split(separator: "\n").count == 1)
        try? FileManager.default.removeItem(at: directory)
    }
}
