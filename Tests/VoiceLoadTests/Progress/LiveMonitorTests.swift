import Synchronization
import Testing

@testable import VoiceLoad

@Suite("Live monitor")
struct LiveMonitorTests {
    /// What the monitor wrote.
    private final class Output: Sendable {
        let texts = Mutex<[String]>([])
        func write(_ text: String) { texts.withLock { $0.append(text) } }
    }

    @Test("when the run ends the ticker stops, the metrics take the last figures and the last line closes the output")
    func lastWord() async {
        let output = Output()
        let metrics = PrometheusLiveMetrics()
        let monitor = LiveMonitor(
            progress: ProgressPrinter(mode: .log(intervalMs: 3_600_000), total: .sessions(1)),
            metrics: metrics,
            tickMs: 1,
            write: { output.write($0) }
        )
        let recorder = Recorder()
        monitor.runStarted(recorder: recorder)
        recorder.sessionStarted()
        recorder.recordSession(SessionRecord(client: 0, iteration: 0))
        await monitor.runEnded()
        let texts = output.texts.withLock { $0 }
        #expect(texts.count == 1)
        #expect(texts.last?.hasPrefix("progress t=") == true)
        #expect(texts.last?.contains(" active=0 sessions=1/1 failed=0 ") == true)
        #expect(texts.last?.hasSuffix("\n") == true)
        #expect(String(decoding: metrics.exposition(), as: UTF8.self).contains("vload_sessions_completed_total 1\n"))
        await monitor.runEnded()
        #expect(output.texts.withLock { $0.count } == 1)
    }

    @Test("quiet: with no printer nothing is written, the metrics still follow the run")
    func quiet() async {
        let output = Output()
        let metrics = PrometheusLiveMetrics()
        let monitor = LiveMonitor(progress: nil, metrics: metrics, tickMs: 1, write: { output.write($0) })
        let recorder = Recorder()
        monitor.runStarted(recorder: recorder)
        recorder.sessionStarted()
        await monitor.runEnded()
        #expect(output.texts.withLock { $0.isEmpty })
        #expect(String(decoding: metrics.exposition(), as: UTF8.self).contains("vload_active_sessions 1.0\n"))
    }
}
