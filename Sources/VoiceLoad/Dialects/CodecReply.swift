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

    /// What the reply is.
    package enum Content: Sendable, Hashable {
        /// A frame built when the inbound frame was decoded.
        case frame(WireFrame)
        /// A frame the codec builds from this intent when the reply is sent: the replies of
        /// dialects that number their messages (Twilio `sequenceNumber`), whose number must be
        /// the one of the message's place on the wire, not of the moment it was decided.
        case intent(ClientIntent)
    }

    package var content: Content
    package var timing: Timing

    package init(_ frame: WireFrame, timing: Timing = .immediately) {
        self.content = .frame(frame)
        self.timing = timing
    }

    /// A reply built by the codec from `intent` when it is sent.
    package init(sending intent: ClientIntent, timing: Timing = .immediately) {
        self.content = .intent(intent)
        self.timing = timing
    }
}

extension ClientCodec {
    /// The frames of a reply: the one built when its frame was decoded, or those the codec
    /// builds for its intent now.
    package mutating func replyFrames(_ content: CodecReply.Content) -> [WireFrame] {
        switch content {
        case .frame(let frame): return [frame]
        case .intent(let intent): return frames(for: intent)
        }
    }
}
