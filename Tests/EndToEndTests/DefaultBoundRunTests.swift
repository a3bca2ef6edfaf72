import Foundation
import Testing
import VoiceLoad

/// A user's first try of any built-in dialect is a valid run: 20 clients of the greeting
/// against the built-in simulator, held to vload's default bound (no `--max-lag-ms`), exit 0.
/// Every dialect `--dialect` takes: the WebSocket dialects and both WebRTC dialects.
///
/// The other suites judge the generator at `EndToEndBound` (10 ms), which hid a simulator that
/// fell behind its own demos: at 20 clients the speech-to-text finals, due within a few
/// milliseconds of each other, were built one after the other at ~215,000 instructions each,
/// and the run exited 3 (BENCHMARKS.md, "The built-in simulator at the reply instant").
///
/// One dialect at a time: runs side by side would share the machine's cores and each be judged
/// on the others' load. A run that vload's own check finds invalid is run again, at most three
/// times in all (`VLoadProcess.runValid`), for the reason the other suites give: on this
/// 2-vCPU VM the host now and then stalls a thread for 1–3 ms (an idle thread's 1 ms timer
/// woke up to 2.6 ms late, docs/development.md), and one such stall in the few milliseconds
/// in which a run's replies fall due makes the run invalid, at 2 ms, with nothing wrong in
/// vload. Every retry is printed with vload's reasons; a simulator that falls behind at every
/// reply instant, as it did, fails all three. On a host that stalls an idle thread past the
/// bound on its own (`HostTimer`), a run invalid in all three tries is printed, not failed.
@Suite("End to end: every built-in dialect at the default bound", .serialized)
struct DefaultBoundRunTests {
    static let clients = 20

    @Test("greeting at 20 clients against the built-in simulator, default bound: exit 0", arguments: DialectRegistry.clientIDs)
    func dialect(id: String) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vload-default-bound-\(id)-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try VLoadProcess.runValid(
            ["run", "--dialect", id, "--scenario", ShortCall.scenarioPath, "--clients", String(Self.clients), "--quiet", "--out", out]
                + ShortCall.simulatorArguments,
            suiteBound: false
        )
        let report = try RunReport.decode(from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        if outcome.status == VLoadProcess.invalidRunStatus && !HostTimer.holdsDefaultBound {
            // Invalid in every try on a host that stalls an idle thread past the bound on its own
            // (HostTimer): said, not failed; everything else below is still checked.
            print("\(id): invalid in every try at the default bound on this host (\(HostTimer.measure)): \(report.generator.problems)")
        } else {
            #expect(outcome.status == 0, "\(id): \(outcome.stdout)\n\(outcome.stderr)")
            #expect(report.generator.healthy, "\(id): \(report.generator.problems)")
        }
        #expect(report.config.maxLagMs == RunReport.defaultMaxLagMs, "\(id)")
        #expect(report.sessions.completed == Self.clients, "\(id)")
        // Every session's reply was timed against the bound: one answer per session.
        #expect(report.generator.simulatorReplyLateMs?.count == Self.clients, "\(id): \(report.generator)")
    }
}
