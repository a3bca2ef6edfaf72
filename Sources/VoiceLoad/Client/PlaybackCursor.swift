/// Simulated real-time playback of agent audio on a client with no speaker (PROTOCOLS.md §2.4).
///
/// Playback starts when the first chunk arrives (after an optional jitter buffer) and advances
/// in real time; audio that arrives faster than real time queues behind what is playing.
public struct PlaybackCursor: Sendable, Hashable {
    public var jitterBufferUs: Int64
    /// The moment everything received so far has been played; nil when nothing is queued.
    public private(set) var drainsAt: MonotonicInstant?

    public init(jitterBufferUs: Int64 = 0) {
        self.jitterBufferUs = jitterBufferUs
    }

    /// Queues a chunk of `durationUs` that arrived at `at`.
    public mutating func enqueue(durationUs: Int64, at: MonotonicInstant) {
        let start: MonotonicInstant
        if let drainsAt, drainsAt > at {
            start = drainsAt
        } else {
            start = at.advanced(byMicroseconds: jitterBufferUs)
        }
        drainsAt = start.advanced(byMicroseconds: durationUs)
    }

    /// Whether everything received has been played by `now`.
    public func isDrained(at now: MonotonicInstant) -> Bool {
        guard let drainsAt else { return true }
        return drainsAt <= now
    }

    /// Drops whatever has not been played yet (the dialect's interrupt or flush signal).
    public mutating func flush(at now: MonotonicInstant) {
        if let drainsAt, drainsAt > now {
            self.drainsAt = now
        }
    }
}
