import Testing

@testable import VoiceLoad

@Suite("Threshold expressions")
struct ThresholdExpressionTests {
    @Test("a percentile of a latency metric")
    func percentile() throws {
        let expression = try ThresholdExpression.parse("first_audio_from_end_ms.p95 < 900")
        #expect(expression.metric == .latency(.firstAudioFromEndMs))
        #expect(expression.aggregation == .percentile(95))
        #expect(expression.comparison == .less)
        #expect(expression.bound == 900)
        #expect(expression.unit == "ms")
        #expect(expression.label == nil)
    }

    @Test("a label, a unit, and p99.9")
    func labelAndUnits() throws {
        let labelled = try ThresholdExpression.parse("first_audio_from_end_ms{label=arrival}.p50 <= 800ms")
        #expect(labelled.label == "arrival")
        #expect(labelled.comparison == .lessOrEqual)
        #expect(labelled.bound == 800)
        let seconds = try ThresholdExpression.parse("int_ack_ms.max<1.5s")
        #expect(seconds.aggregation == .max)
        #expect(seconds.bound == 1_500)
        let fine = try ThresholdExpression.parse("turn_duration_ms.p99.9 >= 10")
        #expect(fine.aggregation == .percentile(99.9))
        #expect(fine.aggregation.name == "p99.9")
        #expect(fine.aggregation.minimumSamples == 1_000)
        #expect(ThresholdAggregation.percentile(99).minimumSamples == 100)
        #expect(ThresholdAggregation.percentile(50).minimumSamples == 20)
    }

    @Test("rates are percentages, counts plain numbers")
    func ratesAndCounts() throws {
        let errors = try ThresholdExpression.parse("error_rate < 1%")
        #expect(errors.metric == .ratio(.errorRate))
        #expect(errors.bound == 1)
        #expect(errors.unit == "%")
        let missed = try ThresholdExpression.parse("missed_interruption_rate == 0")
        #expect(missed.comparison == .equal)
        let turns = try ThresholdExpression.parse("turns >= 20")
        #expect(turns.metric == .tally(.turns))
        #expect(turns.unit == "")
        let count = try ThresholdExpression.parse("int_ack_ms.count != 0")
        #expect(count.comparison == .notEqual)
        #expect(count.aggregation == .count)
    }

    @Test(
        "malformed expressions are one-line errors",
        arguments: [
            ("first_audio_from_end_ms.p95 900", "no comparison"),
            ("first_audio_ms.p95 < 900", "unknown metric 'first_audio_ms'"),
            ("first_audio_from_end_ms < 900", "needs an aggregation"),
            ("first_audio_from_end_ms.p95 < fast", "is not a number"),
            ("first_audio_from_end_ms.p95 < 900%", "unit '%' does not fit"),
            ("first_audio_from_end_ms.median < 900", "unknown aggregation 'median'"),
            ("first_audio_from_end_ms.p0 < 900", "unknown aggregation 'p0'"),
            ("first_audio_from_end_ms{lab=x}.p95 < 900", "{label=NAME}"),
            ("connect_ms{label=x}.p95 < 900", "turn metrics only"),
            ("error_rate.p95 < 1", "takes no aggregation"),
            ("turns < 5ms", "unit 'ms' does not fit"),
        ]
    )
    func malformed(text: String, expected: String) {
        #expect {
            _ = try ThresholdExpression.parse(text)
        } throws: { error in
            let message = (error as? InputError)?.message ?? ""
            return message.contains(expected) && message.contains(text) && !message.contains("\n")
        }
    }

    @Test("a scenario's thresholds are checked at load time, with line and column")
    func scenarioThresholds() throws {
        let good = """
            name: gated
            steps:
              - connect
            thresholds:
              - first_audio_from_end_ms.p95 < 900
              - error_rate < 1%
            """
        let scenario = try ScenarioLoader.parse(yaml: good, path: "gated.yaml")
        #expect(scenario.thresholds.map(\.text) == ["first_audio_from_end_ms.p95 < 900", "error_rate < 1%"])
        let bad = good.replacingOccurrences(of: "error_rate < 1%", with: "error_rate << 1%")
        #expect {
            _ = try ScenarioLoader.parse(yaml: bad, path: "gated.yaml")
        } throws: { error in
            (error as? ScenarioError)?.description.hasPrefix("gated.yaml:6:5: thresholds[1]: invalid threshold") == true
        }
    }
}
