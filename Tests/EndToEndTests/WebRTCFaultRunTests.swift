import Foundation
import Testing
import VoiceLoad

/// vload against a faulty WebRTC agent: the built-in simulator injects each fault a WebRTC call
/// can show into one session in twelve (docs/running.md, "Fault injection"), and every injected
/// fault must be counted in its error class exactly as often as the simulator injected it.
@Suite("End to end: faults over WebRTC")
struct WebRTCFaultRunTests {
    /// What each fault shows as over WebRTC: a refusal is the offer's status; the agent's close
    /// is its hang-up, which carries no code.
    static let expectedClass = [
        "refuse_401": "signalling_rejected_401", "refuse_503": "signalling_rejected_503",
        "slow_ready": "timeout_wait_ready", "close_1011": "closed_by_server_no_code",
        "stall": "timeout_wait_agent_turn_end", "malformed": "malformed_frame", "silence": "silent_reply",
        "error_event": "in_band_error_simulated_fault", "drop_turn_end": "missing_turn_end",
    ]

    /// The greeting and one question, each kind of fault at 1/12 a session: 24 sessions draw
    /// each about twice (the draws are quasi-random: docs/running.md).
    private static func scenario(dialect: String, faults: [String], in directory: URL) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("faults.yaml").path
        let hello = repositoryRoot() + "/scenarios/audio/hello.wav"
        let yaml = """
            name: webrtc-faults
            dialect: \(dialect)
            quiet_ms: 500
            simulator:
              faults:
            \(faults.map { "    \"\($0)\": 0.083" }.joined(separator: "\n"))
            steps:
              - connect:
                timeout_ms: 5000
              - wait: ready
                timeout_ms: 5000
              - wait: greeting
                timeout_ms: 10000
              - say: \(hello)
              - wait: agent_turn_end
                timeout_ms: 8000
              - hangup

            """
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// pipecat-webrtc has no in-band error and ends a turn with a gap in the audio: it cannot
    /// show `error_event` or `drop_turn_end` (refused up front); openai-realtime-webrtc can.
    @Test(
        "each fault a WebRTC call can show, in its class with the injected count",
        arguments: [
            ("pipecat-webrtc", ["refuse:401", "refuse:503", "slow_ready", "close:1011", "stall", "malformed", "silence"]),
            ("openai-realtime-webrtc",
             ["refuse:401", "refuse:503", "slow_ready", "close:1011", "stall", "malformed", "silence", "error_event", "drop_turn_end"]),
        ]
    )
    func everyFault(dialect: String, faults: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-webrtc-faults-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("run").path
        let outcome = try VLoadProcess.runValid([
            "run", "--scenario", try Self.scenario(dialect: dialect, faults: faults, in: directory), "--clients", "12",
            "--iterations", "2", "--record", "none", "--threshold", "errors < 1", "--out", out,
        ])
        #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
        let report = try RunReport.decode(from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        let injected = report.simulatorFaultsInjected ?? [:]
        let byClass = report.errors.byClass
        print("\(dialect) injected: \(injected.sorted { $0.key < $1.key })\nerrors: \(byClass.sorted { $0.key < $1.key })")
        let expected = Self.expectedClass.filter { fault, _ in faults.contains { $0.replacingOccurrences(of: ":", with: "_") == fault } }
        #expect(expected.count == faults.count)
        for (fault, errorClass) in expected {
            #expect((injected[fault] ?? 0) >= 1, "\(fault) was never injected")
            #expect(byClass[errorClass] == injected[fault], "\(fault): injected \(injected[fault] ?? 0), \(errorClass) \(byClass[errorClass] ?? 0)")
        }
        #expect(Set(byClass.keys).isSubset(of: Set(expected.values)), "errors no fault explains: \(byClass)")
        #expect(report.sessions.started == 24)
    }
}
