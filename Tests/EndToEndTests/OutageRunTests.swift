import Foundation
import Testing
import VoiceLoad

/// An endpoint that goes away and comes back, through the `vload` binary: the built-in
/// simulator refuses every upgrade for a window (`--sim-outage`), and the run shows the
/// backoff, the outage and the recovery, and fails by the default threshold.
@Suite("End to end: an endpoint that goes away and comes back")
struct OutageRunTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-outage-\(UUID().uuidString)")

    /// A session that connects, waits for ready (the simulator's 100 ms) and hangs up: ten
    /// clients start one every ~10 ms, so the outage's edges are seen within a few ms.
    private func scenario(dialect: String = "datagrid") throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("connect-only-\(dialect).yaml").path
        try "name: connect-only\ndialect: \(dialect)\nsteps:\n  - connect\n  - wait: ready\n  - hangup\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Backoff ceilings 50, 100, 200, 400, 400 … ms, full jitter: a client waits half its
    /// ceiling on average, so in `windowMs` of refusals it makes about this many attempts.
    private static func expectedAttempts(windowMs: Double, minMs: Double, maxMs: Double) -> Int {
        var elapsedMs = 0.0
        var attempts = 0
        while elapsedMs < windowMs {
            attempts += 1
            elapsedMs += min(maxMs, minMs * pow(2, Double(attempts - 1))) / 2
        }
        return attempts
    }

    @Test("--sim-outage 3s..6s: attempts follow the backoff, the outage and recovery match the injection, the run fails")
    func outage() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("run").path
        let clients = 10
        let outcome = try VLoadProcess.runValid([
            "run", "--scenario", try scenario(), "--clients", String(clients), "--duration", "9s",
            "--sim-outage", "3s..6s", "--retry-backoff", "50ms..400ms", "--out", out,
        ])
        print(
            outcome.stdout.split(separator: "\n").filter { $0.contains("unavailable") || $0.contains("attempts") || $0.contains("verdict") }
                .joined(separator: "\n")
        )
        // Sessions failed (every refused one): the default error_rate < 1% fails the run.
        #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.stdout.contains("error_rate < 1% (default)"), "\(outcome.stdout)")
        let report = try RunReport.decode(from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        let outages = report.outages ?? []
        try #require(outages.count == 1, "\(outages)")
        let outage = outages[0]
        print(
            "outage \(outage.startS) → \(outage.endS ?? -1) s, \(outage.attempts) attempts, recovery \(outage.recoveryMs ?? -1) ms, \(outage.errors)"
        )
        // The window is on the simulator's clock, which starts a few ms before the run's: edges
        // within 100 ms, plus what separates attempts at each edge. At the start, the clients
        // run ~100 ms sessions back to back, all started at once, so they attempt together, up
        // to one session (150 ms allowed) after the window opens (seen: 2.997 s and 3.064 s);
        // at the end they are asleep in their backoff, up to one step (400 ms).
        #expect(outage.startS >= 2.9 && outage.startS <= 3.0 + 0.1 + 0.15, "start \(outage.startS)")
        let endS = try #require(outage.endS)
        #expect(endS >= 2.9 + 3.0 && endS <= 6.0 + 0.1 + 0.4, "end \(endS)")
        #expect(outage.errors.keys.sorted() == ["upgrade_rejected_503"])
        // Recovery: the first session after the window gets ready after the simulator's 100 ms ready delay.
        let recoveryMs = try #require(outage.recoveryMs)
        #expect(recoveryMs >= 90 && recoveryMs <= 600, "recovery \(recoveryMs) ms")
        // The backoff bounds the attempts: about `expected` per client, never thousands.
        let expected = clients * Self.expectedAttempts(windowMs: 3_000, minMs: 50, maxMs: 400)
        #expect(
            outage.attempts >= expected / 2 && outage.attempts <= expected * 2,
            "\(outage.attempts) attempts, about \(expected) expected"
        )
        let attempts = try #require(report.connectionAttempts)
        #expect(attempts.failedBeforeReady == outage.attempts)
        #expect(attempts.total == report.sessions.started)
        #expect(outcome.stdout.contains("endpoint unavailable "), "\(outcome.stdout)")
        #expect(try schemaViolations(ofReportIn: URL(fileURLWithPath: out)) == [])
    }

    /// Over WebRTC the simulator refuses the SDP offers' POSTs in the window: the same outage,
    /// counted in the offer's class, and the calls after it connect again (ICE, DTLS, the data
    /// channel) and get ready. Two seconds: an outage is a streak of failures over at least one.
    @Test("--sim-outage over WebRTC: every offer in the window refused (signalling_rejected_503), the outage and recovery reported")
    func outageOverWebRTC() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("run-webrtc").path
        let outcome = try VLoadProcess.runValid([
            "run", "--scenario", try scenario(dialect: "pipecat-webrtc"), "--clients", "5", "--duration", "6s",
            "--sim-outage", "2s..4s", "--retry-backoff", "50ms..400ms", "--record", "none", "--out", out,
        ])
        #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
        let report = try RunReport.decode(from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        let outages = report.outages ?? []
        try #require(outages.count == 1, "\(outages)")
        let outage = outages[0]
        print("over WebRTC: outage \(outage.startS) → \(outage.endS ?? -1) s, \(outage.attempts) attempts, recovery \(outage.recoveryMs ?? -1) ms")
        // Edges as above: a session of ~120 ms (the connect and the 100 ms ready) at the start,
        // a backoff step (400 ms) at the end.
        #expect(outage.startS >= 1.9 && outage.startS <= 2.0 + 0.1 + 0.15, "start \(outage.startS)")
        let endS = try #require(outage.endS)
        #expect(endS >= 3.9 && endS <= 4.0 + 0.1 + 0.4, "end \(endS)")
        #expect(outage.errors.keys.sorted() == ["signalling_rejected_503"], "\(outage.errors)")
        #expect(report.errors.byClass.keys.sorted() == ["signalling_rejected_503"], "\(report.errors.byClass)")
        let recoveryMs = try #require(outage.recoveryMs)
        #expect(recoveryMs >= 90 && recoveryMs <= 600, "recovery \(recoveryMs) ms")
        #expect(report.simulatorFaultsInjected?["refuse_503"] == report.errors.byClass["signalling_rejected_503"])
        #expect(report.sessions.completed > 0)
    }
}
