import Foundation
import Testing
import VoiceLoad

/// The CI gate against the built-in simulator, through the `vload` binary: thresholds and
/// their exit codes, and `vload compare` on runs of the same and of a slower agent.
@Suite("End to end: the CI gate")
struct GateRunTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-gate-\(UUID().uuidString)")

    private func vload(_ arguments: [String]) throws -> VLoadProcess.Outcome {
        try VLoadProcess.run(arguments)
    }

    /// 24 clients, one session each (24 answers: enough for p95 and for `compare`), against the
    /// simulator at `latencyMs`.
    private func run(_ name: String, latencyMs: Int, _ extra: [String] = []) throws -> (VLoadProcess.Outcome, String) {
        let out = directory.appendingPathComponent(name).path
        let outcome = try VLoadProcess.runValid(
            [
                "run", "--scenario", ShortCall.scenarioPath, "--clients", "24", "--sim-reply-speed", "4",
                "--sim-reply-latency", String(latencyMs), "--out", out,
            ] + ShortCall.simulatorArguments + extra
        )
        return (outcome, out + "/report.json")
    }

    @Test("a holding threshold exits 0, a tighter one 1 naming it; same-config runs compare clean; +20% latency is a regression")
    func gate() throws {
        let (holding, first) = try run(
            "first",
            latencyMs: 700,
            ["--threshold", "first_audio_from_end_ms.p95 < 5000", "--threshold", "error_rate == 0"]
        )
        #expect(holding.status == 0, "\(holding.stdout)\n\(holding.stderr)")
        #expect(holding.stdout.contains("verdict: PASS (2 thresholds hold)"))
        let report = try RunReport.decode(from: Data(contentsOf: URL(fileURLWithPath: first)))
        #expect(report.thresholds.count == 2)
        #expect(report.thresholds.allSatisfy { $0.passed })
        // The built-in simulator's reply timing: one reply per session, held to the send-lag bound.
        #expect(report.generator.simulatorReplyLateMs?.count == 24, "\(report.generator)")

        let (tight, second) = try run("second", latencyMs: 700, ["--threshold", "first_audio_from_end_ms.p95 < 300"])
        #expect(tight.status == 1, "\(tight.stdout)\n\(tight.stderr)")
        let failure = tight.stdout.split(separator: "\n").first { $0.hasPrefix("FAILED first_audio_from_end_ms.p95 < 300: measured ") }
        #expect(failure?.hasSuffix(" ms") == true, "\(tight.stdout)")

        let (_, third) = try run("third", latencyMs: 700)
        for (baseline, current) in [(first, second), (first, third), (second, third)] {
            let comparison = try vload(["compare", baseline, current])
            #expect(comparison.status == 0, "\(comparison.stdout)\n\(comparison.stderr)")
            #expect(comparison.stdout.contains("no regression"))
        }

        let (slower, slowReport) = try run("slower", latencyMs: 840, ["--baseline", first])
        #expect(slower.status == 1, "\(slower.stdout)\n\(slower.stderr)")
        let regression = try vload(["compare", first, slowReport, "--tolerance", "10%"])
        #expect(regression.status == 1, "\(regression.stdout)\n\(regression.stderr)")
        #expect(regression.stdout.contains("REGRESSION first_audio_from_end_ms.p50"), "\(regression.stdout)")
        print(
            regression.stdout.split(separator: "\n").filter { $0.hasPrefix("REGRESSION") || $0.hasPrefix("first_audio_from_end_ms ") }
                .joined(separator: "\n")
        )

        let unreadable = try vload(["compare", first, directory.appendingPathComponent("missing.json").path])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.hasPrefix("vload: error: cannot read report"))
        try? FileManager.default.removeItem(at: directory)
    }

    @Test("10 answers, all above a p95 < 1 bound: too few for p95, yet it fails (exit 1, not 3)")
    func fewSamplesOneSide() throws {
        let outcome = try VLoadProcess.runValid(
            [
                "run", "--scenario", ShortCall.scenarioPath, "--clients", "10", "--sim-reply-speed", "4",
                "--threshold", "first_audio_from_end_ms.p95 < 1", "--out", directory.appendingPathComponent("few").path,
            ] + ShortCall.simulatorArguments
        )
        #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.stdout.contains("FAILED first_audio_from_end_ms.p95 < 1: measured "), "\(outcome.stdout)")
        let report = try RunReport.decode(from: Data(contentsOf: directory.appendingPathComponent("few/report.json")))
        #expect(report.thresholds.first?.status == .failed)
        #expect(report.thresholds.first?.reason?.contains("none of the 10 is < 1 ms") == true, "\(report.thresholds)")
        try? FileManager.default.removeItem(at: directory)
    }

    @Test("an endpoint no session can reach: exit 4, infrastructure failure")
    func unreachable() throws {
        // Port 9 (discard) on loopback: nothing listens, the connect is refused at once.
        let outcome = try vload([
            "run", "--scenario", "greeting", "--clients", "2", "--url", "ws://127.0.0.1:9/ws",
            "--out", directory.appendingPathComponent("unreachable").path,
        ])
        #expect(outcome.status == 4, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.stdout.contains("verdict: INFRASTRUCTURE FAILURE: no session reached the endpoint (connect_refused)"))
        try? FileManager.default.removeItem(at: directory)
    }
}
