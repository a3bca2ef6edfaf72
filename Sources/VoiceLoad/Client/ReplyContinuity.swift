import WSCore

/// Whether one agent turn played without gaps for the caller (docs/audio-continuity.md): the
/// underruns of the playback cursor after the turn's playback started, and how fast its audio
/// came compared with real time.
///
/// Fed with every chunk of the turn and the underrun (if any) the cursor reported for it. The
/// turn's first chunk starts its playback and so cannot end a stall of it; a later chunk that
/// finds the cursor drained ends one, whose silence runs from the drain to the chunk's
/// playback (after the jitter buffer again). Chunks after the turn's end belong to another
/// turn, so an underrun after the last chunk is never a stall. An underrun with no silence (no
/// jitter buffer, and the next chunk exactly on time) is none either. After `stop(at:)` (a
/// barge-in) nothing more counts, and a stall under way is cut at that moment.
package struct ReplyContinuity: Sendable, Hashable {
    /// Underruns after the turn's playback started (`stall_count`).
    package private(set) var stallCount = 0
    /// Their silence in total, in µs (`stall_ms`).
    package private(set) var stallUs: Int64 = 0
    /// The chunks counted, and the audio they held.
    package private(set) var chunks = 0
    package private(set) var audioUs: Int64 = 0
    package private(set) var firstAudioAt: MonotonicInstant?
    package private(set) var lastAudioAt: MonotonicInstant?
    /// When counting stopped (a barge-in); nil while it goes on.
    package private(set) var stoppedAt: MonotonicInstant?
    /// When the latest stall's silence ends (playback resumes).
    private var lastStallResumesAt: MonotonicInstant?

    package init() {}

    /// A chunk of the turn of `durationUs` arrived at `at`; `underrun` is what
    /// `PlaybackCursor.enqueue` returned for it.
    package mutating func chunkArrived(durationUs: Int64, at: MonotonicInstant, underrun: PlaybackCursor.Underrun?) {
        if let stoppedAt, at >= stoppedAt { return }
        if chunks > 0, let underrun {
            let resumesAt = stoppedAt.map { min($0, underrun.resumesAt) } ?? underrun.resumesAt
            let silenceUs = resumesAt.microseconds(since: underrun.drainedAt)
            // Without a jitter buffer a chunk arriving just as the last one ends leaves no gap.
            if silenceUs > 0 {
                stallCount += 1
                stallUs += silenceUs
                lastStallResumesAt = resumesAt
            }
        }
        chunks += 1
        audioUs += durationUs
        if firstAudioAt == nil { firstAudioAt = at }
        lastAudioAt = at
    }

    /// Counting stops at `at` (the caller barged in): a stall whose playback resumes later is
    /// cut there; chunks arriving from `at` on are not counted.
    package mutating func stop(at: MonotonicInstant) {
        guard stoppedAt == nil else { return }
        stoppedAt = at
        if let resumesAt = lastStallResumesAt, resumesAt > at {
            stallUs -= min(stallUs, resumesAt.microseconds(since: at))
        }
    }

    /// `reply_rtf`: the audio received ÷ the span of its arrival (first to last chunk); nil for
    /// one chunk or a span of zero (audio that came all at once has no rate).
    package var replyRTF: Double? {
        guard chunks > 1, let firstAudioAt, let lastAudioAt else { return nil }
        let spanUs = lastAudioAt.microseconds(since: firstAudioAt)
        guard spanUs > 0 else { return nil }
        return Double(audioUs) / Double(spanUs)
    }
}
