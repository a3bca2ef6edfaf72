import WSCore

/// The agent's audio of one call attempt as the caller's simulated playback placed it
/// (docs/recordings.md): each chunk where it began to play, the flushes that cut what was still
/// queued (a barge-in's acknowledgement), and the stalls between chunks of one turn. Kept only
/// for a call that may be recorded; the chunks are held as they arrived (base64 text or bytes,
/// shared, not copied) and decoded only when the recording is written, after the call.
package struct AgentAudioCapture: Sendable {
    /// A chunk of agent audio and where it played.
    package struct Played: Sendable {
        package var chunk: AgentAudioChunk
        /// When it began to play (after the audio queued before it, or the jitter buffer).
        package var startsAt: MonotonicInstant
        /// When it arrived and was queued: a flush after this cuts it.
        package var queuedAt: MonotonicInstant

        package var endsAt: MonotonicInstant { startsAt.advanced(byMicroseconds: chunk.durationUs) }
    }

    /// Playback ran dry within an agent turn: silence from `from` to `until`.
    package struct Stall: Sendable, Hashable {
        package var from: MonotonicInstant
        package var until: MonotonicInstant
    }

    package private(set) var played: [Played] = []
    package private(set) var flushes: [MonotonicInstant] = []
    package private(set) var stalls: [Stall] = []
    /// Audio kept so far (its bytes as decoded), and where keeping stopped (`maxCapturedBytes` reached).
    package private(set) var capturedBytes = 0
    package private(set) var cutAt: MonotonicInstant?
    /// The most audio kept (`RecordingDesk.agentAudioBytesPerCall`).
    package let maxCapturedBytes: Int
    private var lastEndsAt: MonotonicInstant?
    private var lastTurn = 0

    package init(maxCapturedBytes: Int) {
        self.maxCapturedBytes = maxCapturedBytes
    }

    /// `chunk` arrived at `at`, in agent turn `turn`; the playback's end moved from
    /// `drainsBefore` to `drainsAfter`. A chunk the caller did not queue (the tail of an
    /// interrupted turn, which a flushed client drops) leaves it where it was, and is not kept.
    package mutating func chunkArrived(
        _ chunk: AgentAudioChunk,
        at: MonotonicInstant,
        drainsBefore: MonotonicInstant?,
        drainsAfter: MonotonicInstant?,
        turn: Int
    ) {
        guard chunk.durationUs > 0, let drainsAfter, drainsAfter != drainsBefore else { return }
        let startsAt = drainsAfter.advanced(byMicroseconds: -chunk.durationUs)
        if turn == lastTurn, let lastEndsAt, startsAt > lastEndsAt { stalls.append(Stall(from: lastEndsAt, until: startsAt)) }
        (lastEndsAt, lastTurn) = (drainsAfter, turn)
        guard cutAt == nil else { return }
        guard capturedBytes + chunk.byteCount <= maxCapturedBytes else {
            cutAt = startsAt
            return
        }
        capturedBytes += chunk.byteCount
        played.append(Played(chunk: chunk, startsAt: startsAt, queuedAt: at))
    }

    /// Playback was flushed at `at`: what was queued and not yet played is dropped.
    package mutating func flushed(at: MonotonicInstant) {
        flushes.append(at)
        if let lastEndsAt, lastEndsAt > at { self.lastEndsAt = at }
    }

    /// Where `item` stops playing: its end, or the first flush after it was queued that falls
    /// before its end (nil when the flush came before it began).
    package func audibleEnd(of item: Played) -> MonotonicInstant? {
        let end = item.endsAt
        guard let flush = flushes.first(where: { $0 >= item.queuedAt && $0 < end }) else { return end }
        return flush > item.startsAt ? flush : nil
    }
}
