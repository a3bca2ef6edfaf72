import Foundation

@testable import VoiceLoad

/// Reports built from literal turns and sessions, for the gate's tests.
enum GateFixtures {
    /// A turn with a first-audio latency.
    static func turn(_ latencyMs: Double, label: String = "a", outcome: TurnOutcome = .completed, client: Int = 0) -> TurnRecord {
        var turn = TurnRecord(
            client: client,
            iteration: 0,
            turn: 1,
            label: label,
            outcome: outcome,
            speechStartOffsetUs: 0,
            speechEndOffsetUs: 1_000_000
        )
        turn.firstAudioFromEndUs = outcome == .completed ? Int64((latencyMs * 1_000).rounded()) : nil
        return turn
    }

    /// `count` evenly spread latencies `baseMs`…`baseMs + spreadMs`, scaled by `scale`.
    static func latencies(count: Int, baseMs: Double = 600, spreadMs: Double = 200, scale: Double = 1) -> [Double] {
        (0..<count).map { ((baseMs + spreadMs * Double($0) / Double(max(count - 1, 1))) * scale * 10).rounded() / 10 }
    }

    static func report(
        turns: [TurnRecord],
        sessions: Int = 10,
        failed: Int = 0,
        errors: [ErrorClass] = [],
        sendLagUs: Int64 = 200
    ) -> RunReport {
        let recorder = Recorder()
        for index in 0..<sessions {
            recorder.sessionStarted(client: index, iteration: 0)
            var session = SessionRecord(client: index, iteration: 0)
            if index < failed { session.outcome = .failed } else { session.connectUs = 2_000 }
            recorder.recordSession(session)
        }
        for (index, error) in errors.enumerated() {
            recorder.recordError(error, client: index, iteration: 0, detail: .test(error.name))
        }
        for turn in turns { recorder.recordTurn(turn) }
        recorder.recordFrameSent(lagUs: sendLagUs)
        return report(of: recorder, sessions: sessions)
    }

    /// The report of a 10 s run of the `demo` scenario at `sessions` clients with what `recorder` recorded.
    static func report(of recorder: Recorder, sessions: Int) -> RunReport {
        let scenario = Scenario(name: "demo", sourcePath: "demo.yaml", steps: [.connect(timeoutMs: 1)])
        let context = RunContext(
            scenario: scenario,
            load: LoadProfile(clients: sessions),
            redactedURL: "ws://127.0.0.1:1/",
            dialect: "datagrid",
            frameMs: 40,
            simulator: nil,
            startedAt: Date(timeIntervalSince1970: 0),
            endedAt: Date(timeIntervalSince1970: 10),
            cpuSeconds: 0.5,
            cores: 2
        )
        return RunReport(context: context, snapshot: recorder.snapshot())
    }
}
