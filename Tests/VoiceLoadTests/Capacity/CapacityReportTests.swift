import Foundation
import TestSupport
import Testing

@testable import VoiceLoad

/// Steps judged from run reports, the capacity report built from them, its JSON against
/// schemas/capacity.schema.json, and its HTML.
@Suite("Capacity report")
struct CapacityReportTests {
    private let slos = [
        try! ThresholdExpression.parse("first_audio_from_end_ms.p95 < 750"),
        try! ThresholdExpression.parse("error_rate < 1%"),
    ]

    /// A step at `clients` whose 40 answers take about `latencyMs` (first audio from the end of speech).
    private func step(_ clients: Int, latencyMs: Double, failed: Int = 0, sendLagUs: Int64 = 200) -> CapacityStep {
        let turns = GateFixtures.latencies(count: 40, baseMs: latencyMs - 10, spreadMs: 10).map { GateFixtures.turn($0) }
        let run = GateFixtures.report(turns: turns, sessions: 100, failed: failed, sendLagUs: sendLagUs)
        return CapacityStep(clients: clients, run: judged(run), report: "step-\(clients)/report.json")
    }

    /// The run with its SLOs judged into its report, as `LoadRun.execute` leaves it.
    private func judged(_ run: RunReport) -> RunReport {
        var run = run
        run.thresholds = ThresholdEvaluator.evaluate(slos, on: run).map(\.result)
        return run
    }

    private func report(_ steps: [CapacityStep], _ outcome: CapacitySearch.Outcome) throws -> CapacityReport {
        let search = try CapacitySearch(startClients: 40, growth: .multiply(by: 2), maxClients: 1_000, resolutionClients: 5)
        return CapacityReport(
            scenario: Scenario(name: "demo", sourcePath: "demo.yaml", steps: [.connect(timeoutMs: 1)]),
            url: "ws://127.0.0.1:1/ws/voice",
            dialect: "datagrid",
            slos: slos,
            search: CapacityReport.Search(search: search, warmupMs: 3_000, holdMs: 10_000, rampUpMs: 3_000),
            simulator: ["workers": "120", "reply_latency_ms": "fixed:700"],
            steps: steps,
            outcome: outcome,
            startedAt: Date(timeIntervalSince1970: 0),
            endedAt: Date(timeIntervalSince1970: 100)
        )
    }

    @Test("a step passes when every SLO holds, and fails naming the SLO that did not")
    func verdicts() {
        let passing = step(120, latencyMs: 740)
        #expect(passing.verdict == .passed && passing.reasons.isEmpty)
        #expect(passing.slos.map(\.status) == [.passed, .passed])
        #expect(passing.sessions == CapacityStep.Sessions(started: 100, completed: 100, failed: 0))
        #expect(passing.line.hasPrefix("   120 clients  PASS  [first_audio_from_end_ms.p95 < 750: 739.8 ms ✓]"), "\(passing.line)")
        #expect(passing.line.hasSuffix("[error_rate < 1%: 0 % ✓]"), "\(passing.line)")

        let slow = step(160, latencyMs: 940)
        #expect(slow.verdict == .failed)
        #expect(slow.reasons.count == 1 && slow.reasons[0].hasPrefix("first_audio_from_end_ms.p95 < 750: measured 9"), "\(slow.reasons)")
        #expect(slow.line.contains("FAIL") && slow.line.contains("✗"))

        let erroring = step(130, latencyMs: 700, failed: 5)
        #expect(erroring.verdict == .failed && erroring.reasons == ["error_rate < 1%: measured 5 %"])
    }

    @Test("an SLO that cannot be judged fails the step and says so; few samples on one side of the bound judge it")
    func unjudged() {
        let run = GateFixtures.report(turns: [GateFixtures.turn(700), GateFixtures.turn(800)], sessions: 5)
        let step = CapacityStep(clients: 5, run: judged(run), report: "step-5/report.json")
        #expect(step.verdict == .failed)
        #expect(
            step.reasons == [
                "first_audio_from_end_ms.p95 < 750 cannot be judged: 2 samples: too few for p95 (needs 20), on both sides of the bound (700–800 ms)"
            ]
        )
        #expect(step.line.contains("cannot be judged"))
        let below = CapacityStep(clients: 5, run: judged(GateFixtures.report(turns: [GateFixtures.turn(700)], sessions: 5)), report: "")
        #expect(below.verdict == .passed)
        let above = CapacityStep(clients: 5, run: judged(GateFixtures.report(turns: [GateFixtures.turn(800)], sessions: 5)), report: "")
        #expect(above.verdict == .failed && above.reasons == ["first_audio_from_end_ms.p95 < 750: measured 800 ms"])
    }

    @Test("a step within the noise of an SLO: its interval holds the bound; a clear one: it does not")
    func noise() throws {
        let near = step(120, latencyMs: 750)  // 40 answers 740–750 ms: p95 at the bound
        let interval = try #require(near.intervals?.first)
        #expect(interval.expression == "first_audio_from_end_ms.p95 < 750" && interval.withinNoise)
        #expect(interval.lowMs <= 750 && interval.highMs >= 750)
        #expect(near.withinNoise == true)
        #expect(near.line.contains("— within noise: first_audio_from_end_ms.p95 < 750 (95%: "), "\(near.line)")
        let clear = step(40, latencyMs: 400)
        #expect(clear.withinNoise == nil && clear.intervals?.first?.withinNoise == false)
        #expect(clear.intervals?.count == 1)  // error_rate has no percentile: no interval
    }

    @Test("a repeated step: both attempts recorded, a pass only if both passed, the answer names the noise; validates")
    func repeated() throws {
        var first = step(130, latencyMs: 750)
        first.attempt = 1
        var second = step(130, latencyMs: 760)
        second.attempt = 2
        second.report = "step-130-2/report.json"
        let steps = [
            step(40, latencyMs: 400), step(80, latencyMs: 560), step(160, latencyMs: 940), first, second, step(120, latencyMs: 700),
        ]
        #expect(first.verdict == .passed && second.verdict == .failed)
        let capacity = try report(steps, .found(highestPassing: 120, lowestFailing: 130))
        #expect(capacity.highestPassing == 120 && capacity.firstFailing?.clients == 130)
        #expect(capacity.withinNoise == [130])
        #expect(capacity.answer.hasPrefix("capacity: 120 concurrent clients met every SLO; 130 did not ("), "\(capacity.answer)")
        #expect(
            capacity.answer.contains("; within noise at 130 clients (passed, then failed: first_audio_from_end_ms.p95 < 750 (95%: "),
            "\(capacity.answer)"
        )
        let data = try capacity.jsonData()
        #expect(try JSONSchemaValidator.capacitySchema().violations(of: data) == [])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"within_noise\" : [\n    130\n  ]") && text.contains("\"attempt\" : 2"), "\(text)")
        #expect(try CapacityReport.decode(from: data).steps == steps)
        let html = CapacityHTML.render(capacity)
        #expect(html.contains("attempt 2 of 2") && html.contains("130 clients (ran twice; passes only if both attempts passed)"))
    }

    @Test("an extended hold is in the step line, capacity.json (validated) and capacity.html")
    func extendedHold() throws {
        var hold = try HoldExtension(holdMs: 20_000, maxHoldMs: 80_000)
        let short = [SampleShortfall(expression: "first_audio_from_end_ms.p95 < 750", count: 11, needed: 20)]
        _ = hold.decide(pastHoldMs: 1, shortfalls: short)
        _ = hold.decide(pastHoldMs: 6_500, shortfalls: [])
        var extended = step(10, latencyMs: 400)
        extended.holdExtension = hold.record
        #expect(extended.line.hasSuffix("— hold extended 6.5 s (samples suffice)"), "\(extended.line)")
        let capacity = try report([extended], .found(highestPassing: 10, lowestFailing: nil))
        let data = try capacity.jsonData()
        #expect(try JSONSchemaValidator.capacitySchema().violations(of: data) == [])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"hold_extension\" : {") && text.contains("\"outcome\" : \"samples_suffice\""))
        #expect(CapacityHTML.render(capacity).contains("hold extended 6.5 s (samples suffice)"))
    }

    @Test("a saturated generator and an unreachable endpoint are their own verdicts")
    func untrustworthy() {
        let saturated = step(320, latencyMs: 700, sendLagUs: 200_000)
        #expect(saturated.verdict == .generatorUnhealthy)
        #expect(saturated.reasons.first?.hasPrefix("the generator was saturated (send_lag_ms p99") == true, "\(saturated.reasons)")
        let run = GateFixtures.report(turns: [], sessions: 3, failed: 3, errors: [.connectFailed, .connectFailed, .connectFailed])
        let unreachable = CapacityStep(clients: 3, run: judged(run), report: "step-3/report.json")
        #expect(unreachable.verdict == .unreachable && unreachable.reasons == ["no session reached the endpoint (connect_failed)"])
    }

    @Test("the report names the highest passing and the first failing concurrency, and validates against the schema")
    func found() throws {
        let steps = [
            step(40, latencyMs: 400), step(80, latencyMs: 560), step(160, latencyMs: 940), step(120, latencyMs: 740),
            step(140, latencyMs: 830), step(130, latencyMs: 770), step(125, latencyMs: 745),
        ]
        let capacity = try report(steps, .found(highestPassing: 125, lowestFailing: 130))
        #expect(capacity.highestPassing == 125 && capacity.firstFailing?.clients == 130)
        #expect(capacity.outcome == "found")
        #expect(
            capacity.answer.hasPrefix(
                "capacity: 125 concurrent clients met every SLO; 130 did not (first_audio_from_end_ms.p95 < 750: measured 7"
            ),
            "\(capacity.answer)"
        )
        let data = try capacity.jsonData()
        #expect(try JSONSchemaValidator.capacitySchema().violations(of: data) == [])
        let decoded = try CapacityReport.decode(from: data)
        #expect(decoded.steps == capacity.steps && decoded.search == capacity.search && decoded.slos == capacity.slos)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"highest_passing\" : 125") && text.contains("\"resolution_clients\" : 5"))
    }

    @Test("every other outcome validates too, and its answer says what happened")
    func otherOutcomes() throws {
        let failedFirst = try report([step(40, latencyMs: 900)], .firstStepFailed(clients: 40))
        #expect(
            failedFirst.highestPassing == nil && failedFirst.answer.hasPrefix("capacity: below 40 clients: the first step already failed (")
        )
        let saturated = try report(
            [step(40, latencyMs: 400), step(80, latencyMs: 500, sendLagUs: 200_000)],
            .generatorUnhealthy(clients: 80)
        )
        #expect(saturated.answer.hasPrefix("capacity: NOT TRUSTWORTHY: at 80 clients the generator was saturated"))
        #expect(saturated.answer.hasSuffix("; the highest passing step so far was 40 clients"))
        let unlimited = try report([step(40, latencyMs: 400)], .found(highestPassing: 40, lowestFailing: nil))
        #expect(unlimited.firstFailing == nil && unlimited.answer.contains("at least 40"))
        for capacity in [failedFirst, saturated, unlimited] {
            #expect(try JSONSchemaValidator.capacitySchema().violations(of: capacity.jsonData()) == [])
        }
    }

    @Test("a search a signal stopped: outcome interrupted, the signal named, exit 130/143, the highest passing step so far")
    func interrupted() throws {
        let outcome = CapacitySearch.Outcome.interrupted(by: .sigterm, clients: 160)
        #expect(outcome.name == "interrupted" && outcome.exitCode == 143)
        #expect(CapacitySearch.Outcome.interrupted(by: .sigint, clients: 1).exitCode == 130)
        let capacity = try report([step(40, latencyMs: 400), step(80, latencyMs: 560)], outcome)
        #expect(capacity.interrupted == true && capacity.interruptedBy == .sigterm && capacity.outcome == "interrupted")
        #expect(
            capacity.answer == "capacity: no answer: interrupted by SIGTERM during the step at 160 clients "
                + "(left out; its partial reports are in step-160/); the highest passing step so far was 80 clients"
        )
        let data = try capacity.jsonData()
        #expect(try JSONSchemaValidator.capacitySchema().violations(of: data) == [])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"interrupted\" : true") && text.contains("\"interrupted_by\" : \"SIGTERM\""))
        #expect(try report([step(40, latencyMs: 400)], .found(highestPassing: 40, lowestFailing: nil)).interrupted == nil)
    }

    @Test("capacity.html: a chart per SLO against concurrency with its bound, steps marked, the steps table")
    func html() throws {
        let steps = [step(40, latencyMs: 400), step(160, latencyMs: 940), step(120, latencyMs: 740), step(140, latencyMs: 830)]
        let html = CapacityHTML.render(try report(steps, .found(highestPassing: 120, lowestFailing: 140)))
        #expect(html.contains("<meta name=\"vload-charts\" content=\"2\">"))
        #expect(html.components(separatedBy: "<svg class=\"chart\"").count == 3)
        #expect(html.contains(">first_audio_from_end_ms.p95 (SLO &lt; 750 ms)</text>"))
        #expect(html.contains("stroke-dasharray") && html.contains(">SLO bound<"))
        #expect(html.contains("<a href=\"step-160/report.html\">step-160</a>"))
        #expect(html.contains("capacity: 120 concurrent clients met every SLO; 140 did not"))
        #expect(!html.contains("<script"))
        #expect(CapacityHTML.metricName("error_rate <= 1%") == "error_rate")
    }
}
