import WSCore

/// A frame of audio prepared once per run for a dialect: either the complete wire frame,
/// shared as is by every connection, or the base64 text of the audio for dialects whose
/// frames carry per-connection fields (Twilio sequence numbers, OpenAI response ids).
package struct PreparedAudio: Sendable {
    /// The complete frame, when every connection sends the same bytes.
    package var sharedFrame: EncodedFrame?
    /// The audio as standard base64, when the codec builds the frame per send.
    package var base64: String?
    /// The raw audio length.
    package var byteCount: Int

    package init(sharedFrame: EncodedFrame, byteCount: Int) {
        self.sharedFrame = sharedFrame
        self.byteCount = byteCount
    }

    package init(base64: String, byteCount: Int) {
        self.base64 = base64
        self.byteCount = byteCount
    }
}

/// What one inbound frame means to the client: events, and frames to send in reply.
package struct DecodedFrame: Sendable, Hashable, ExpressibleByArrayLiteral {
    package var events: [NormalizedEvent]
    package var replies: [CodecReply]

    package init(events: [NormalizedEvent], replies: [CodecReply] = []) {
        self.events = events
        self.replies = replies
    }

    package init(arrayLiteral events: NormalizedEvent...) {
        self.init(events: events)
    }
}

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
