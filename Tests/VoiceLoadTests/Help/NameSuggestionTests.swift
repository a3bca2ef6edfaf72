import Testing

@testable import VoiceLoad

@Suite("Name suggestions")
struct NameSuggestionTests {
    @Test(
        "edit distance counts inserts, deletes, substitutions and swaps of neighbours",
        arguments: [
            ("", "", 0), ("abc", "", 3), ("", "ab", 2), ("eror_rate", "error_rate", 1), ("mena", "mean", 1),
            ("kitten", "sitting", 3), ("p69", "p96", 1), ("abcdef", "abcdef", 0), ("ca", "abc", 3),
        ]
    )
    func distance(a: String, b: String, expected: Int) {
        #expect(NameSuggestion.editDistance(a, b) == expected)
        #expect(NameSuggestion.editDistance(b, a) == expected)
    }

    @Test(
        "the nearest metric name",
        arguments: [
            ("eror_rate", "error_rate"),
            ("first_audio_ms", "first_audio_from_end_ms"),
            ("first_audo_from_end_ms", "first_audio_from_end_ms"),
            ("first_audio_from_end", "first_audio_from_end_ms"),
            ("firstAudioFromEndMs", "first_audio_from_end_ms"),
            ("First-Audio-From-Start-Ms", "first_audio_from_start_ms"),
            ("int_ack", "int_ack_ms"),
            ("connect", "connect_ms"),
            ("turn", "turns"),
            ("stall", "stall_ms"),
            ("rate", "error_rate"),
            ("missed_interuption_rate", "missed_interruption_rate"),
            ("end_first_audio_from_ms", "first_audio_from_end_ms"),
        ]
    )
    func nearest(typed: String, expected: String) {
        #expect(NameSuggestion.nearest(to: typed, in: GateMetric.allNames) == expected)
    }

    @Test("nothing when nothing is near", arguments: ["latency", "ms", "xyz", "p95", "ttfb", "", "first", "stall_rate"])
    func nothingNear(typed: String) {
        #expect(NameSuggestion.nearest(to: typed, in: GateMetric.allNames) == nil)
    }

    @Test("ties go to the earlier candidate")
    func ties() {
        #expect(NameSuggestion.nearest(to: "cat", in: ["bat", "hat"]) == "bat")
        #expect(NameSuggestion.nearest(to: "cat", in: ["hat", "bat"]) == "hat")
    }

    @Test(
        "the nearest aggregation",
        arguments: [
            ("mena", "mean"), ("P95", "p95"), ("95", "p95"), ("median", "p50"), ("average", "mean"),
            ("p999", "p99.9"), ("p99_9", "p99.9"), ("maxx", "max"), ("cont", "count"), ("MAX", "max"),
        ]
    )
    func aggregation(typed: String, expected: String) {
        #expect(ThresholdAggregation.suggestion(for: typed) == expected)
    }

    @Test("no aggregation when nothing is near", arguments: ["p0", "p", "sum", "p100.5", "total"])
    func noAggregation(typed: String) {
        #expect(ThresholdAggregation.suggestion(for: typed) == nil)
    }
}
