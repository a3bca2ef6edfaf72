import Foundation
import Testing
import VoiceLoad

/// Deepgram Flux (`deepgram-flux`) against the built-in simulator, through the `vload` binary:
/// the end of the user's turn comes the injected latency after the end of the caller's speech.
@Suite("End to end: Deepgram Flux against the simulator", .serialized)
struct FluxRunTests {
    static let clients = 20
    static let latencyMs = 700.0
    /// How far the median end of turn may sit from the injected latency. The simulator sends
    /// EndOfTurn from a timer and the caller reads it on its loop; both wake-ups run late on
    /// this 2-core host, which put the exact median (turns.csv) at 700.4-700.8 ms when quiet and
    /// at up to 701.65 ms with builds beside it (held to 1 ms, these tests failed so, both
    /// in CI and helpers' runs). 2 ms still catches an error of a VAD window (10 ms) or a frame.
    /// Beyond it, what the run measured of its own delays (RunDelays).
    static let medianToleranceMs = 2.0

    /// `vload run --dialect deepgram-flux --scenario <greeting, short> --clients 20` with the
    /// simulator's reply latency fixed at `latencyMs`; `session` (YAML) is added to the scenario,
    /// and `steps` before its question.
    private func run(session: String? = nil, steps: String? = nil) throws -> (status: Int32, output: String, report: RunReport, turns: String) {
        var scenario = ShortCall.scenarioPath
        if session != nil || steps != nil {
            let shipped = try String(contentsOfFile: scenario, encoding: .utf8)
            var text = shipped.replacingOccurrences(
                of: "  ephemeral: true     # keep load-test calls out of conversation history",
                with: session ?? "  ephemeral: true"
            )
            if let steps { text = text.replacingOccurrences(of: "  - say: ", with: steps + "\n  - say: ") }
            scenario = FileManager.default.temporaryDirectory.appendingPathComponent("vload-flux-\(UUID().uuidString).yaml").path
            try text.write(toFile: scenario, atomically: true, encoding: .utf8)
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vload-flux-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try VLoadProcess.runValid(
            [
                "run", "--dialect", "deepgram-flux", "--scenario", scenario, "--clients", String(Self.clients), "--quiet", "--out", out,
                "--sim-reply-latency", String(Int(Self.latencyMs)),
            ] + ShortCall.simulatorArguments
        )
        let report = try RunReport.decode(from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        #expect(try schemaViolations(ofReportIn: URL(fileURLWithPath: out)) == [])
        let turns = try String(contentsOfFile: out + "/turns.csv", encoding: .utf8)
        return (outcome.status, outcome.stdout + outcome.stderr, report, turns)
    }

    @Test("greeting at 20 clients: exit 0, end_of_turn_ms median (turns.csv) within 2 ms of the injected latency, no session early")
    func endOfTurn() throws {
        let run = try run()
        #expect(run.status == 0, "\(run.output)")
        #expect(run.report.errors.total == 0, "\(run.report.errors.byClass)")
        #expect(run.report.sessions.completed == Self.clients)
        let endOfTurn = try #require(run.report.metrics["end_of_turn_ms"])
        #expect(endOfTurn.count == Self.clients)
        // The simulator times EndOfTurn from the end of speech as its VAD places it on the
        // stream's clock, anchored on the earliest-arriving frame, so a session whose every frame
        // its loop read late is answered that much late, on top of its timer's own lateness. On
        // this 2-core host at a load average of 5 (other builds running), 20 sessions gave p50
        // 700.4–702.0 ms and max up to 703.5 ms, with min 700.1–700.5: the median within 1 ms
        // on a quiet host, and no session ever early.
        let median = try #require(TurnsCSV.median(TurnsCSV.values("end_of_turn_ms", csv: run.turns)))
        let (low, high) = (try #require(endOfTurn.min), try #require(endOfTurn.max))
        print("end_of_turn_ms min \(low) median \(median) (report p50 \(endOfTurn.p50 ?? -1)) max \(high), injected \(Self.latencyMs)")
        #expect(low >= Self.latencyMs, "end_of_turn_ms min \(low) vs injected \(Self.latencyMs)")
        #expect(
            RunDelays.matches(median, injectedMs: Self.latencyMs, toleranceMs: Self.medianToleranceMs, in: run.report),
            "end_of_turn_ms median \(median) vs injected \(Self.latencyMs), run's own delays \(RunDelays.stallMs(of: run.report)) ms")
        #expect(high - Self.latencyMs <= 5 + RunDelays.stallMs(of: run.report), "end_of_turn_ms max \(high) vs injected \(Self.latencyMs)")
        #expect(run.report.metrics["eager_end_of_turn_ms"]?.count == 0, "no eager threshold, no eager end")
        #expect(run.report.metrics["endpoint_ms"]?.count == 0)
        #expect(run.report.turnsResumed == nil, "no eager end, nothing to withdraw")
        #expect(run.turns.split(separator: "\n").first?.hasSuffix(",turns_resumed") == true)
    }

    @Test("with eager_eot_threshold in the session: eager_end_of_turn_ms for every session, before the end of turn")
    func eagerEndOfTurn() throws {
        let run = try run(session: "  eager_eot_threshold: 0.5")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.report.errors.total == 0, "\(run.report.errors.byClass)")
        #expect(run.report.config.metricsMeasured.contains("eager_end_of_turn_ms"))
        let eager = try #require(run.report.metrics["eager_end_of_turn_ms"])
        #expect(eager.count == Self.clients)
        let endOfTurn = try #require(run.report.metrics["end_of_turn_ms"])
        #expect(endOfTurn.count == Self.clients)
        // The simulator's eager end goes out when its VAD has heard `--sim-vad-silence-ms` (500) of silence.
        #expect(try #require(eager.max) < Self.latencyMs, "eager \(eager.max ?? -1) ms")
        let median = try #require(TurnsCSV.median(TurnsCSV.values("end_of_turn_ms", csv: run.turns)))
        #expect(
            RunDelays.matches(median, injectedMs: Self.latencyMs, toleranceMs: Self.medianToleranceMs, in: run.report),
            "end_of_turn_ms median \(median), run's own delays \(RunDelays.stallMs(of: run.report)) ms")
        #expect(run.report.turnsResumed == 0, "the clip has no pause long enough for an eager end to be withdrawn")
    }

    /// A caller who pauses mid-sentence: the short clip cut 280 ms after its speech ends
    /// (1,510 ms), then the whole clip again (speech from 300 ms): 580 ms of silence between the
    /// two halves. Written once to a temporary WAV.
    static let pausingClipPath: String = {
        let wav = (try? Data(contentsOf: URL(fileURLWithPath: ShortCall.clipPath))) ?? Data()
        // The shipped clip is 16 kHz mono PCM16 with a 44-byte header: samples from byte 44.
        let samples = wav.dropFirst(44)
        let cutBytes = 1_510 * 16 * 2
        let pcm = Data(samples.prefix(cutBytes)) + Data(samples)
        var header = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        append(UInt32(36 + pcm.count))
        header.append(contentsOf: Data("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(UInt32(16_000)); append(UInt32(32_000)); append(UInt16(2)); append(UInt16(16))
        header.append(contentsOf: Data("data".utf8))
        append(UInt32(pcm.count))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vload-pausing-\(UUID().uuidString).wav").path
        _ = FileManager.default.createFile(atPath: path, contents: header + pcm)
        return path
    }()

    @Test("a caller who pauses 580 ms mid-sentence: EagerEndOfTurn, TurnResumed once per turn, the end of turn from the real end of speech")
    func resumedTurn() throws {
        // The simulator's eager end goes out 500 ms into the pause (its VAD's silence window)
        // and its final end is due the reply latency after the pause began: 1,000 ms here (not
        // 700), so the second half's start, heard 60 ms in on an 80 ms frame, comes well
        // before it and withdraws it.
        let latencyMs = 1_000.0
        let shipped = try String(contentsOfFile: ShortCall.scenarioPath, encoding: .utf8)
        let text = shipped.replacingOccurrences(of: "say: \(ShortCall.clipPath)", with: "say: \(Self.pausingClipPath)")
            .replacingOccurrences(of: "  ephemeral: true     # keep load-test calls out of conversation history", with: "  eager_eot_threshold: 0.5")
        let scenario = FileManager.default.temporaryDirectory.appendingPathComponent("vload-flux-\(UUID().uuidString).yaml").path
        try text.write(toFile: scenario, atomically: true, encoding: .utf8)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vload-flux-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try VLoadProcess.runValid(
            [
                "run", "--dialect", "deepgram-flux", "--scenario", scenario, "--clients", String(Self.clients), "--quiet", "--out", out,
                "--sim-reply-latency", String(Int(latencyMs)),
            ] + ShortCall.simulatorArguments
        )
        let report = try RunReport.decode(from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        #expect(outcome.status == 0, "\(outcome.stdout + outcome.stderr)")
        #expect(report.errors.total == 0, "\(report.errors.byClass)")
        #expect(report.turnsResumed == Self.clients, "one TurnResumed per session's turn")
        let endOfTurn = try #require(report.metrics["end_of_turn_ms"])
        #expect(endOfTurn.count == Self.clients)
        #expect(try #require(endOfTurn.min) >= latencyMs, "timed from the end of the whole sentence, not the pause")
        let median = try #require(TurnsCSV.median(try TurnsCSV.values("end_of_turn_ms", in: out)))
        #expect(
            RunDelays.matches(median, injectedMs: latencyMs, toleranceMs: Self.medianToleranceMs, in: report),
            "end_of_turn_ms median \(median) (report p50 \(endOfTurn.p50 ?? -1)), run's own delays \(RunDelays.stallMs(of: report)) ms")
        let eager = try #require(report.metrics["eager_end_of_turn_ms"])
        #expect(eager.count == Self.clients, "the eager end that stood: after the second half")
        #expect(try #require(eager.max) < latencyMs)
        let turns = try String(contentsOfFile: out + "/turns.csv", encoding: .utf8).split(separator: "\n")
        #expect(turns.dropFirst().filter { $0.hasSuffix(",1") }.count == Self.clients, "turns_resumed 1 on every row")
    }

    @Test("a configure step that sets eager_eot_threshold mid-stream: Configure answered, the eager end for every session")
    func configureStep() throws {
        let run = try run(steps: "  - configure: {eager_eot_threshold: 0.5, eot_threshold: 0.8}")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.report.errors.total == 0, "ConfigureSuccess is no error: \(run.report.errors.byClass)")
        let eager = try #require(run.report.metrics["eager_end_of_turn_ms"])
        #expect(eager.count == Self.clients, "the simulator sent EagerEndOfTurn once Configure set the threshold")
        #expect(try #require(eager.max) < Self.latencyMs)
        // The exact median from turns.csv, as the greeting's test above: the report's p50 is an
        // HDR bucket value, up to 0.5 ms off at 700 ms.
        let median = try #require(TurnsCSV.median(TurnsCSV.values("end_of_turn_ms", csv: run.turns)))
        #expect(
            RunDelays.matches(median, injectedMs: Self.latencyMs, toleranceMs: Self.medianToleranceMs, in: run.report),
            "end_of_turn_ms median \(median) (report p50 \(run.report.metrics["end_of_turn_ms"]?.p50 ?? -1)), run's own delays \(RunDelays.stallMs(of: run.report)) ms")
    }
}
