/// Where speech starts and ends inside a clip, as offsets from the clip's first sample.
///
/// These are docs/metrics.md's `speech_start_offset` / `speech_end_offset`; with
/// `T_mic_open` they give `T_us_start` and `T_us_end`, the acoustic speech start and end.
package struct SpeechBoundaries: Sendable, Hashable, Codable {
    /// Offset of the first voiced sample, in microseconds from the clip start.
    package var speechStartUs: Int64
    /// Offset just past the last voiced sample, in microseconds from the clip start.
    package var speechEndUs: Int64

    package init(speechStartUs: Int64, speechEndUs: Int64) {
        self.speechStartUs = speechStartUs
        self.speechEndUs = speechEndUs
    }

    /// Length of the speech span in microseconds.
    package var speechDurationUs: Int64 { speechEndUs - speechStartUs }
}
