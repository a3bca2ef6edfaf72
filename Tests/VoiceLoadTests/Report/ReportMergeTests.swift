import Foundation
import TestSupport
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Merging the reports of a split run")
struct ReportMergeTests {
    /// The report of clients `owned` of a ten-client run: the same turns a single process records.
    private func report(segment: LoadSegment?, scenario: String = "demo", startS: Double = 0) -> RunReport {
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        let recorder = Recorder(startedAt: start)
        let owned = segment.map { $0.share(of: 10) } ?? Array(0..<10)
        for client in owned {
            recorder.sessionStarted(client: client, at: start)
            recorder.recordStartLag(microseconds: Int64(100 * client))
            for turn in 1...5 {
                let record = TurnRecord(
                    client: client,
                    iteration: 0,
                    turn: turn,
                    label: turn == 1 ? "first" : "later",
                    outcome: .completed,
                    speechStartOffsetUs: 100_000,
                    speechEndOffsetUs: 900_000,
                    firstAudioFromEndUs: Int64(((600 + Double(client * 37 % 101) + Double(turn) * 13.7) * 1_000).rounded()),
                    turnDurationUs: 2_000_000
                )
                recorder.recordTurn(record, at: start.advanced(byMilliseconds: Int64(1_000 * turn)))
            }
            var session = SessionRecord(client: client, iteration: 0)
            session.connectUs = 1_000 + Int64(client) * 100
            session.connectPhases = ConnectPhases(dnsUs: 100, tcpUs: 200 + Int64(client) * 25, tlsUs: 300, upgradeUs: 400)
            session.sessionSetupTotalUs = 100_000 + Int64(client) * 1_000
            if client == 3 {
                session.outcome = .failed
                recorder.recordError(
                    .timeout(step: "wait"),
                    at: start.advanced(byMilliseconds: 5_500),
                    client: client,
                    iteration: 0,
                    detail: .test("no ready within 5000 ms")
                )
            }
            recorder.recordSession(session, at: start.advanced(byMilliseconds: 6_000))
            recorder.recordFrameSent(lagUs: Int64(200 + client))
        }
        if segment?.index == 1 || segment == nil { recorder.recordDroppedStart(reason: .maxInFlight) }
        var load = LoadProfile(clients: 10)
        load.segment = segment ?? .whole
        var simulatorLate = LatencyHistogram()
        for client in owned { simulatorLate.record(microseconds: Int64(50 * client)) }
        var context = RunContext(
            scenario: Scenario(name: scenario, sourcePath: "scenarios/\(scenario).yaml", steps: [.connect(timeoutMs: 1)]),
            load: load,
            redactedURL: "ws://127.0.0.1:9/",
            dialect: "datagrid",
            frameMs: 40,
            simulator: nil,
            startedAt: Date(timeIntervalSince1970: 1_700_000_000 + startS),
            endedAt: Date(timeIntervalSince1970: 1_700_000_007 + startS),
            cpuSeconds: 0.5,
            cores: 2
        )
        context.simulatorReplyLateness = simulatorLate
        return RunReport(context: context, snapshot: recorder.snapshot())
    }

    @Test func mergedSegmentsEqualTheWholeRun() throws {
        let whole = report(segment: nil)
        let parts = (0..<2).map { report(segment: LoadSegment(index: $0, count: 2), startS: Double($0)) }
        let merged = try ReportMerge.merge(parts, names: ["a.json", "b.json"])
        #expect(merged.sessions.started == whole.sessions.started)
        #expect(merged.sessions.failed == 1)
        #expect(merged.sessions.dropped == 1)
        #expect(merged.sessions.droppedByReason == ["max_in_flight": 1])
        #expect(merged.turns == whole.turns)
        #expect(merged.errors.byClass == whole.errors.byClass)
        #expect(merged.generator.framesSent == 10)
        #expect(merged.generator.cpuSeconds == 1)
        #expect(merged.generator.cores == 4)
        for name in [
            "first_audio_from_end_ms", "connect_ms", "dns_ms", "tcp_ms", "tls_ms", "upgrade_ms", "session_setup_total_ms",
            "turn_duration_ms",
        ] {
            let (a, b) = (try #require(merged.metrics[name]), try #require(whole.metrics[name]))
            #expect(a.count == b.count, "\(name)")
            #expect([a.min, a.p50, a.p90, a.p95, a.p99, a.max] == [b.min, b.p50, b.p90, b.p95, b.p99, b.max], "\(name)")
        }
        #expect(merged.labels["first"]?["first_audio_from_end_ms"]?.p95 == whole.labels["first"]?["first_audio_from_end_ms"]?.p95)
        #expect(merged.generator.sendLagMs.p99 == whole.generator.sendLagMs.p99)
        #expect(merged.generator.startLagMs?.max == whole.generator.startLagMs?.max)
        #expect(merged.generator.simulatorReplyLateMs?.count == 10)
        #expect(merged.generator.simulatorReplyLateMs?.p99 == whole.generator.simulatorReplyLateMs?.p99)
        #expect(merged.config.load?.segment == nil)
        #expect(merged.mergedFrom?.map(\.segment) == [1, 2])
        // Started one second apart on the wall clock: 8 s in all, timelines shifted by a second.
        #expect(merged.durationS == 8)
        #expect(merged.timeline.map(\.sessionsStarted).reduce(0, +) == 10)
        #expect(merged.timeline[0].sessionsStarted == 5)
        #expect(merged.timeline[1].sessionsStarted == 5)
        let data = try merged.jsonData()
        #expect(try JSONSchemaValidator.reportSchema().violations(of: data) == [])
        #expect(try RunReport.decode(from: data).sessions.started == 10)
    }

    @Test func injectedFaultsAddUp() throws {
        var parts = (0..<2).map { report(segment: LoadSegment(index: $0, count: 2)) }
        #expect(try ReportMerge.merge(parts).simulatorFaultsInjected == nil)
        parts[0].simulatorFaultsInjected = ["close_1011": 2, "stall": 1]
        parts[1].simulatorFaultsInjected = ["close_1011": 1, "refuse_503": 4]
        #expect(try ReportMerge.merge(parts).simulatorFaultsInjected == ["close_1011": 3, "stall": 1, "refuse_503": 4])
    }

    @Test func warningsAndLateCancelsAddUpAndAreSchemaValid() throws {
        var parts = (0..<2).map { report(segment: LoadSegment(index: $0, count: 2)) }
        #expect(try ReportMerge.merge(parts).warnings == nil)
        parts[0].warnings = ["SLOW_THINK": 2]
        parts[1].warnings = ["SLOW_THINK": 1, "unknown": 1]
        parts[0].interruptions.lateCancels = 1
        parts[1].interruptions.lateCancels = 2
        let merged = try ReportMerge.merge(parts)
        #expect(merged.warnings == ["SLOW_THINK": 3, "unknown": 1])
        #expect(merged.interruptions.lateCancels == 3)
        let data = try merged.jsonData()
        #expect(try JSONSchemaValidator.reportSchema().violations(of: data) == [])
        let decoded = try RunReport.decode(from: data)
        #expect(decoded.warnings == merged.warnings && decoded.interruptions.lateCancels == 3)
        #expect(SummaryTable.render(merged).contains("server warnings (not errors): SLOW_THINK 3, unknown 1"))
    }

    @Test func errorCategoriesSumAndExamplesKeepTheEarliestThreeOnOneClock() throws {
        func example(_ tS: Double, client: Int) -> ErrorExample {
            ErrorExample(tS: tS, client: client, iteration: 0, detail: "detail \(client)")
        }
        var first = report(segment: LoadSegment(index: 0, count: 2))
        var second = report(segment: LoadSegment(index: 1, count: 2), startS: 1)
        first.errors = RunReport.Errors(
            byClass: ["silent_reply": 3, "timeout_wait": 1],
            examples: [
                "silent_reply": [example(0.5, client: 0), example(2, client: 2), example(4, client: 4)],
                "timeout_wait": [example(5.5, client: 3)],
            ]
        )
        second.errors = RunReport.Errors(
            byClass: ["silent_reply": 2, "connect_refused": 1],
            examples: ["silent_reply": [example(0.2, client: 1), example(3.5, client: 5)], "connect_refused": [example(0.1, client: 7)]]
        )
        let merged = try ReportMerge.merge([first, second])
        #expect(merged.errors.byClass == ["silent_reply": 5, "timeout_wait": 1, "connect_refused": 1])
        #expect(merged.errors.byCategory == ["reply": 5, "timeout": 1, "connect": 1])
        #expect(merged.errors.total == 7)
        // The second part started a second later: its 0.2 s is the merged run's 1.2 s.
        #expect(merged.errors.examples["silent_reply"] == [example(0.5, client: 0), example(1.2, client: 1), example(2, client: 2)])
        #expect(merged.errors.examples["connect_refused"] == [example(1.1, client: 7)])
        #expect(merged.errors.examples["timeout_wait"] == [example(5.5, client: 3)])
        #expect(try JSONSchemaValidator.reportSchema().violations(of: merged.jsonData()) == [])
    }

    @Test func thresholdsAreJudgedOnTheMergedFigures() throws {
        let parts = (0..<2).map { report(segment: LoadSegment(index: $0, count: 2)) }
        let merged = try ReportMerge.merge(parts)
        let check = ThresholdEvaluator.evaluate(try ThresholdExpression.parse("error_rate < 5%"), on: merged)
        #expect(check.result.measured == 10)
        #expect(check.status == .failed)
        // One dropped start of eleven scheduled.
        let dropped = ThresholdEvaluator.evaluate(try ThresholdExpression.parse("dropped_rate < 5%"), on: merged)
        #expect(dropped.result.measured == 9.091)
        #expect(dropped.status == .failed)
        #expect(ThresholdEvaluator.evaluate(try ThresholdExpression.parse("dropped == 1"), on: merged).status == .passed)
    }

    @Test func droppedStartsShowInEveryRendering() {
        let merged = report(segment: nil)
        let line = "1 of 11 scheduled sessions did not start (max_in_flight 1)"
        #expect(SummaryTable.render(merged).contains("DROPPED STARTS: " + line))
        #expect(MarkdownSummary.render(merged).contains("**Dropped starts:** " + line))
        #expect(HTMLReport.render(merged).contains(line))
    }

    @Test func refusesReportsThatAreNotOneRun() {
        let one = report(segment: LoadSegment(index: 0, count: 2))
        let cases: [([RunReport], String)] = [
            ([one], "at least two"),
            ([one, one], "segment 1/2 is given twice"),
            ([one, report(segment: LoadSegment(index: 1, count: 3))], "not segments of one split"),
            ([one, report(segment: nil)], "not segments of one split"),
            ([report(segment: LoadSegment(index: 0, count: 3)), report(segment: LoadSegment(index: 2, count: 3))], "segment 2/3 missing"),
            ([one, report(segment: LoadSegment(index: 1, count: 2), scenario: "other")], "ran scenario 'other'"),
        ]
        for (parts, message) in cases {
            #expect {
                try ReportMerge.merge(parts)
            } throws: { error in
                (error as? InputError)?.message.contains(message) == true
            }
        }
    }
}
