import Testing

@testable import VoiceLoad

@Suite("Threshold typos")
struct ThresholdSuggestionTests {
    static let metricList =
        "(a metric of 'vload help metrics', error_rate, missed_interruption_rate, premature_response_rate, timeout_rate, dropped_rate, stalled_turn_rate, false_barge_in_rate, sessions, turns, errors or dropped)"
    static let aggregationList = "(count, rate, mean, min, max, or pN such as p95, p99.9)"

    @Test(
        "a mistyped name or aggregation gets the nearest valid one in the same error line",
        arguments: [
            (
                "first_audio_ms.p95 < 900",
                "invalid threshold 'first_audio_ms.p95 < 900': unknown metric 'first_audio_ms', did you mean 'first_audio_from_end_ms'? \(metricList)"
            ),
            (
                "eror_rate < 1%",
                "invalid threshold 'eror_rate < 1%': unknown metric 'eror_rate', did you mean 'error_rate'? \(metricList)"
            ),
            (
                "first_audio_form_end_ms.p95 < 900",
                "invalid threshold 'first_audio_form_end_ms.p95 < 900': unknown metric 'first_audio_form_end_ms', did you mean 'first_audio_from_end_ms'? \(metricList)"
            ),
            (
                "first_audio_from_end_ms.mena < 900",
                "invalid threshold 'first_audio_from_end_ms.mena < 900': unknown aggregation 'mena', did you mean 'mean'? \(aggregationList)"
            ),
            (
                "first_audio_from_end_ms.95 < 900",
                "invalid threshold 'first_audio_from_end_ms.95 < 900': unknown aggregation '95', did you mean 'p95'? \(aggregationList)"
            ),
            (
                "first_audio_from_end_ms.median < 900",
                "invalid threshold 'first_audio_from_end_ms.median < 900': unknown aggregation 'median', did you mean 'p50'? \(aggregationList)"
            ),
            (
                "latency.p95 < 900",
                "invalid threshold 'latency.p95 < 900': unknown metric 'latency' \(metricList)"
            ),
        ]
    )
    func typo(text: String, message: String) {
        #expect(throws: InputError(message)) { try ThresholdExpression.parse(text) }
    }

    @Test("any percentile in (0, 100] is valid, so p69 is no typo")
    func anyPercentile() throws {
        #expect(try ThresholdExpression.parse("first_audio_from_end_ms.p69 < 900").aggregation == .percentile(69))
    }

    @Test("a scenario's thresholds get the same hint, with line and column")
    func scenario() {
        let yaml = """
            name: typo
            steps:
              - connect
            thresholds:
              - eror_rate < 1%
            """
        #expect {
            _ = try ScenarioLoader.parse(yaml: yaml, path: "typo.yaml")
        } throws: { error in
            (error as? ScenarioError)?.description.hasPrefix(
                "typo.yaml:5:5: thresholds[0]: invalid threshold 'eror_rate < 1%': unknown metric 'eror_rate', did you mean 'error_rate'? ("
            ) == true
        }
    }
}
