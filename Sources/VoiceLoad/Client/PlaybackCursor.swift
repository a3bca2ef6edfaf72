import WSCore

/// Simulated real-time playback of agent audio on a client with no speaker (docs/metrics.md).
///
/// Playback starts when the first chunk arrives, after an optional jitter buffer, and advances
/// in real time; audio that arrives faster than real time queues behind what is playing. After
/// an underrun (everything played, nothing new yet) the next chunk waits for the jitter buffer
/// again. The cursor knows how much of the current agent turn has been *heard*, which times
/// barge-ins, OpenAI truncation and Twilio mark echoes.
package struct PlaybackCursor: Sendable, Hashable {
    package var jitterBufferUs: Int64
    /// The moment everything received so far has been played; nil when nothing was queued.
    package private(set) var drainsAt: MonotonicInstant?
    /// When the current run of uninterrupted playback began (or begins, within the jitter buffer).
    private var runStartsAt: MonotonicInstant?
    /// Audio of the current run, queued so far.
    private var runQueuedUs: Int64 = 0
    /// Audio of the current turn heard before the current run began (negative when the run
    /// started with the previous turn's audio).
    private var heardBeforeRunUs: Int64 = 0

    package init(jitterBufferUs: Int64 = 0) {
        self.jitterBufferUs = jitterBufferUs
    }

    /// A gap in playback: everything received had played at `drainedAt`, and the chunk that
    /// ended it starts playing at `resumesAt`, after the jitter buffer.
    package struct Underrun: Sendable, Hashable {
        package var drainedAt: MonotonicInstant
        package var resumesAt: MonotonicInstant

        /// The silence the listener hears, in µs.
        package var silenceUs: Int64 { resumesAt.microseconds(since: drainedAt) }
    }

    /// Queues a chunk of `durationUs` that arrived at `at`. Returns the underrun it ends when
    /// earlier audio had played out by `at` (nil when the chunk joins the queue, or is the first).
    @discardableResult
    package mutating func enqueue(durationUs: Int64, at: MonotonicInstant) -> Underrun? {
        if let drainsAt, drainsAt > at {
            runQueuedUs += durationUs
            self.drainsAt = drainsAt.advanced(byMicroseconds: durationUs)
            return nil
        }
        heardBeforeRunUs += runQueuedUs  // the previous run has played in full
        let start = at.advanced(byMicroseconds: jitterBufferUs)
        let underrun = drainsAt.map { Underrun(drainedAt: $0, resumesAt: start) }
        runStartsAt = start
        runQueuedUs = durationUs
        drainsAt = start.advanced(byMicroseconds: durationUs)
        return underrun
    }

    /// A new agent turn begins: `heardUs` counts its audio only, which plays after whatever
    /// is still queued.
    package mutating func startTurn(at now: MonotonicInstant) {
        heardBeforeRunUs = -runQueuedUs
    }

    /// How much of the current turn's audio has played by `now`.
    package func heardUs(at now: MonotonicInstant) -> Int64 {
        max(0, heardBeforeRunUs + playedInRunUs(at: now))
    }

    /// The moment `targetUs` of the current turn will have been heard, from what is queued
    /// now; nil when not enough audio has arrived yet. A moment already past is returned as is.
    package func instant(whenHeardReaches targetUs: Int64) -> MonotonicInstant? {
        guard let runStartsAt else { return targetUs <= 0 ? .init(nanoseconds: 0) : nil }
        let intoRunUs = targetUs - heardBeforeRunUs
        guard intoRunUs <= runQueuedUs else { return nil }
        return runStartsAt.advanced(byMicroseconds: max(0, intoRunUs))
    }

    /// Whether everything received has been played by `now`.
    package func isDrained(at now: MonotonicInstant) -> Bool {
        guard let drainsAt else { return true }
        return drainsAt <= now
    }

    /// Drops whatever has not been played yet (the dialect's interrupt or flush signal).
    package mutating func flush(at now: MonotonicInstant) {
        guard let drainsAt, drainsAt > now else { return }
        heardBeforeRunUs += playedInRunUs(at: now)
        runStartsAt = now
        runQueuedUs = 0
        self.drainsAt = now
    }

    private func playedInRunUs(at now: MonotonicInstant) -> Int64 {
        guard let runStartsAt, now > runStartsAt else { return 0 }
        return min(runQueuedUs, now.microseconds(since: runStartsAt))
    }
}
