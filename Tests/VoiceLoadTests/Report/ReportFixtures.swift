import Foundation
import WSCore

@testable import VoiceLoad

/// Reports built from recorded events at fixed instants, so every rendering is deterministic.
enum ReportFixtures {
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    static func at(_ seconds: Double) -> MonotonicInstant {
        start.advanced(byNanoseconds: Int64(seconds * 1e9))
    }

    /// Three sessions over four seconds: labelled turns, a barge-in, errors, thresholds.
    static func richReport(thresholds: [ThresholdResult] = passingAndFailing) -> RunReport {
        let recorder = Recorder(startedAt: start)
        // The timeline takes events in the order they happen: sessions open first.
        for client in 0..<3 { recorder.sessionStarted(at: at(Double(client) * 0.5)) }
        for client in 0..<3 {
            var session = SessionRecord(client: client, iteration: 0)
            session.connectUs = 2_000 + Int64(client) * 1_000
            session.sessionSetupTotalUs = 40_000 + Int64(client) * 1_000
            for turn in 1...4 {
                var record = TurnRecord(
                    client: client,
                    iteration: 0,
                    turn: turn,
                    label: turn % 2 == 0 ? "order-status" : "greeting <&>",
                    outcome: .completed,
                    speechStartOffsetUs: 100_000,
                    speechEndOffsetUs: 900_000,
                    firstAudioFromEndUs: Int64(300 + client * 40 + turn * 25) * 1_000,
                    turnDurationUs: 2_000_000
                )
                if turn == 4 && client == 1 {
                    record.outcome = .interrupted
                    record.bargeIn = true
                    record.missedInterruption = false
                    record.intAckUs = 120_000
                }
                recorder.recordTurn(record, at: at(Double(client) * 0.5 + Double(turn) * 0.8))
            }
            if client == 2 {
                recorder.recordError(
                    .closedByServer(code: 1011),
                    at: at(3.9),
                    client: client,
                    iteration: 0,
                    detail: Redactor(secrets: ["sk-live-0123"]).detail(.close(code: 1011, reason: "internal <error> for sk-live-0123"))
                )
                session.outcome = .failed
                session.errorClass = "closed_by_server_1011"
            }
            recorder.recordSession(session, at: at(Double(client) * 0.5 + 3.6))
        }
        recorder.recordFrameSent(lagUs: 300)
        var report = RunReport(context: context(), snapshot: recorder.snapshot())
        report.thresholds = thresholds
        return report
    }

    /// A run that recorded nothing at all.
    static func emptyReport() -> RunReport {
        RunReport(context: context(), snapshot: Recorder(startedAt: start).snapshot())
    }

    static let passingAndFailing = [
        ThresholdResult(
            expression: "first_audio_from_end_ms.p95 < 900",
            metric: "first_audio_from_end_ms",
            aggregation: "p95",
            comparison: "<",
            bound: 900,
            measured: 485,
            unit: "ms",
            status: .passed
        ),
        ThresholdResult(
            expression: "error_rate < 1%",
            metric: "error_rate",
            aggregation: "rate",
            comparison: "<",
            bound: 1,
            measured: 33.3,
            unit: "%",
            status: .failed
        ),
        ThresholdResult(
            expression: "first_audio_from_end_ms{label=\"greeting <&>\"}.p99 < 400",
            metric: "first_audio_from_end_ms",
            label: "greeting <&>",
            aggregation: "p99",
            comparison: "<",
            bound: 400,
            measured: nil,
            unit: "ms",
            status: .failed,
            reason: "6 samples: too few for p99"
        ),
    ]

    private static func context() -> RunContext {
        RunContext(
            scenario: Scenario(name: "demo", sourcePath: "scenarios/demo.yaml", steps: [.connect(timeoutMs: 1)]),
            load: LoadProfile(clients: 3),
            redactedURL: "ws://127.0.0.1:9/?token=REDACTED&a=1",
            dialect: "datagrid",
            metricsMeasured: MetricName.core.union(MetricName.audioReply),
            frameMs: 40,
            simulator: ["latency_ms": "300"],
            startedAt: Date(timeIntervalSince1970: 1_700_000_000),
            endedAt: Date(timeIntervalSince1970: 1_700_000_004.5),
            cpuSeconds: 0.4,
            cores: 2
        )
    }
}
