import Foundation
import TestSupport
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Reports of interrupted, drained and reconnecting runs")
struct InterruptedReportTests {
    private static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    /// Four sessions: one completed first time, one recovered after two reconnects, one
    /// exhausted after three, one wound down.
    private func recorder() -> Recorder {
        let recorder = Recorder(startedAt: Self.start)
        for client in 0..<4 { recorder.sessionStarted(client: client, at: Self.start) }
        recorder.recordSession(SessionRecord(client: 0, iteration: 0))
        var recovered = SessionRecord(client: 1, iteration: 0)
        for _ in 0..<2 {
            recorder.recordError(.closedByServer(code: 1011), client: 0, iteration: 0, detail: .test("x"))
            recorder.recordReconnect(afterErrorNamed: ErrorClass.closedByServer(code: 1011).name)
        }
        recovered.attempts = 3
        recorder.recordSession(recovered)
        var exhausted = SessionRecord(client: 2, iteration: 0)
        for _ in 0..<3 {
            recorder.recordError(.connectFailed, client: 0, iteration: 0, detail: .test("x"))
            recorder.recordReconnect(afterErrorNamed: ErrorClass.connectFailed.name)
        }
        recorder.recordError(.connectFailed, client: 0, iteration: 0, detail: .test("x"))
        exhausted.attempts = 4
        exhausted.outcome = .failed
        exhausted.errorClass = "connect_failed"
        exhausted.reconnectsExhausted = true
        recorder.recordSession(exhausted)
        var woundDown = SessionRecord(client: 3, iteration: 0)
        woundDown.outcome = .woundDown
        recorder.recordSession(woundDown)
        return recorder
    }

    private func report(
        interruptedBy: InterruptSignal?,
        reconnect: ReconnectPolicy? = ReconnectPolicy(attempts: 3, backoffMs: 500, maxBackoffMs: 8_000),
        load: LoadProfile = LoadProfile(clients: 4)
    ) -> RunReport {
        var scenario = Scenario(name: "demo", sourcePath: "demo.yaml", steps: [.connect(timeoutMs: 1)])
        scenario.reconnect = reconnect
        var context = RunContext(
            scenario: scenario,
            load: load,
            redactedURL: "ws://127.0.0.1:1/",
            dialect: "datagrid",
            frameMs: 40,
            simulator: nil,
            startedAt: Date(timeIntervalSince1970: 0),
            endedAt: Date(timeIntervalSince1970: 12.3),
            cpuSeconds: 0.5,
            cores: 2
        )
        context.interruptedBy = interruptedBy
        return RunReport(context: context, snapshot: recorder().snapshot())
    }

    @Test("the recorder counts interrupted sessions apart, and reconnects: attempts by cause, recovered, exhausted")
    func recorderCounts() {
        let snapshot = recorder().snapshot()
        #expect(snapshot.sessionsStarted == 4 && snapshot.sessionsCompleted == 2)
        #expect(snapshot.sessionsFailed == 1 && snapshot.sessionsWoundDown == 1)
        #expect(snapshot.reconnects.attempts == 5 && snapshot.reconnects.recovered == 1 && snapshot.reconnects.exhausted == 1)
        #expect(snapshot.reconnects.byClass == ["closed_by_server_1011": 2, "connect_failed": 3])
        // Errors count every failure, the ones that led to a reconnect too.
        #expect(snapshot.errors == ["closed_by_server_1011": 2, "connect_failed": 4])
        let live = recorder().liveFigures()
        #expect(live.sessionsWoundDown == 1 && live.sessionsEnded == 4)
    }

    @Test("report.json of an interrupted run: interrupted, interrupted_by, sessions.interrupted, reconnects; valid and decodable")
    func interruptedJSON() throws {
        let data = try report(interruptedBy: .sigint).jsonData()
        #expect(try JSONSchemaValidator.reportSchema().violations(of: data) == [])
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["interrupted"] as? Bool == true)
        #expect(object["interrupted_by"] as? String == "SIGINT")
        let sessions = try #require(object["sessions"] as? [String: Any])
        #expect(sessions["interrupted"] as? Int == 1 && sessions["failed"] as? Int == 1)
        let reconnects = try #require(object["reconnects"] as? [String: Any])
        #expect(reconnects["attempts"] as? Int == 5 && reconnects["recovered"] as? Int == 1 && reconnects["exhausted"] as? Int == 1)
        #expect(reconnects["by_class"] as? [String: Int] == ["closed_by_server_1011": 2, "connect_failed": 3])
        let config = try #require(object["config"] as? [String: Any])
        #expect(config["drain_ms"] == nil)  // a run by iterations has no drain limit
        let decoded = try RunReport.decode(from: data)
        #expect(decoded.interruptedBy == .sigint && decoded.reconnects?.attempts == 5 && decoded.sessions.interrupted == 1)
    }

    @Test("a drained time-bounded run records drain_ms and is not interrupted; no policy, no reconnects field")
    func drainedJSON() throws {
        var load = LoadProfile(clients: 4, durationMs: 10_000)
        load.drainMs = 2_500
        let report = report(interruptedBy: nil, reconnect: nil, load: load)
        #expect(!report.interrupted && report.interruptedBy == nil && report.reconnects == nil)
        #expect(report.config.drainMs == 2_500)
        let data = try report.jsonData()
        #expect(try JSONSchemaValidator.reportSchema().violations(of: data) == [])
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["interrupted"] as? Bool == false && object["interrupted_by"] == nil && object["reconnects"] == nil)
        let text = SummaryTable.render(report)
        #expect(text.contains("4 sessions (2 completed, 1 failed, 1 interrupted)"))
        #expect(text.contains("DRAIN LIMIT: 1 session was still open 2.5 s after the load ended and was wound down"))
        #expect(!text.contains("INTERRUPTED") && !text.contains("reconnects:"))
    }

    @Test("the summary says the run was interrupted, after how long, and shows the reconnects")
    func summaryLines() {
        let text = SummaryTable.render(report(interruptedBy: .sigterm))
        #expect(text.contains("INTERRUPTED by SIGTERM after 12.3 s: no session started after it; 1 open session was wound down"))
        #expect(text.contains("reconnects: 5 (1 session recovered, 1 exhausted; closed_by_server_1011 2, connect_failed 3)"))
        let markdown = MarkdownSummary.render(report(interruptedBy: .sigterm))
        #expect(markdown.contains("**INTERRUPTED by SIGTERM") && markdown.contains("1 interrupted"))
        #expect(HTMLReport.render(report(interruptedBy: .sigterm)).contains("INTERRUPTED by SIGTERM"))
        #expect(JUnitReport.render(report(interruptedBy: .sigterm)).contains("INTERRUPTED by SIGTERM"))
        #expect(!JUnitReport.render(report(interruptedBy: nil)).contains("INTERRUPTED"))
    }

    @Test("merge sums interrupted sessions and reconnects and keeps the interrupting signal")
    func merge() throws {
        let merged = try ReportMerge.merge([report(interruptedBy: nil), report(interruptedBy: .sigterm)])
        #expect(merged.interrupted && merged.interruptedBy == .sigterm)
        #expect(merged.sessions.interrupted == 2 && merged.sessions.failed == 2)
        #expect(merged.reconnects?.attempts == 10 && merged.reconnects?.recovered == 2 && merged.reconnects?.exhausted == 2)
        #expect(merged.reconnects?.byClass == ["closed_by_server_1011": 4, "connect_failed": 6])
        let unpolicied = try ReportMerge.merge([report(interruptedBy: nil, reconnect: nil), report(interruptedBy: nil, reconnect: nil)])
        #expect(unpolicied.reconnects == nil && !unpolicied.interrupted)
        #expect(try JSONSchemaValidator.reportSchema().violations(of: merged.jsonData()) == [])
    }

    @Test("sessions.csv has each session's attempts, then its caller's draws (empty when callers do not vary)")
    func attemptsColumn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vload-attempts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try CSVRowWriter(directory: directory)
        var session = SessionRecord(client: 2, iteration: 1)
        session.attempts = 3
        session.outcome = .woundDown
        writer.write(session)
        writer.close()
        let lines = try String(contentsOf: directory.appendingPathComponent("sessions.csv"), encoding: .utf8).split(separator: "\n")
        let rtp = "packets_received,packets_expected,packets_lost,late_packets,jitter_ms_max"
        #expect(lines.first?.hasSuffix(",turns,attempts,\(rtp),noise_bed,snr_db,noise_offset_ms,gain_db,speaking_rate") == true)
        #expect(lines.last == "2,1,interrupted,,,,,,,,,,,,,,,,,0,,0,3,,,,,,,,,,")
    }
}
