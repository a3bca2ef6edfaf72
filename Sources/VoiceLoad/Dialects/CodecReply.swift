import WSCore

/// A frame the protocol requires the client to send in answer to an inbound frame.
package struct CodecReply: Sendable, Hashable {
    package enum Timing: Sendable, Hashable {
        /// Send at once (Deepgram `Settings` after `Welcome`).
        case immediately
        /// Send when the playback cursor has played everything received so far (Twilio
        /// `mark` echoes), or at once when playback is flushed.
        case whenPlayedOut
        /// Send this many milliseconds after the inbound frame arrived (a custom dialect's
        /// `at: after_ms:<n>`), whatever happens to playback.
        case afterMs(Int)

        /// When a reply to a frame that arrived at `receivedAt` is due, with the playback
        /// cursor draining at `playbackDrainsAt` (nil: nothing is playing): nil for at once.
        package func dueAt(receivedAt: MonotonicInstant, playbackDrainsAt: MonotonicInstant?) -> MonotonicInstant? {
            switch self {
            case .immediately: return nil
            case .whenPlayedOut: return max(playbackDrainsAt ?? receivedAt, receivedAt)
            case .afterMs(let delayMs): return receivedAt.advanced(byMilliseconds: Int64(delayMs))
            }
        }
    }

    package var frame: WireFrame
    package var timing: Timing

    package init(_ frame: WireFrame, timing: Timing = .immediately) {
        self.frame = frame
        self.timing = timing
    }
}
