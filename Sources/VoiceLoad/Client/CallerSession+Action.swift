import WSCore

extension CallerSession {
    /// The caller's named timers; `VirtualClient` keeps one scheduled task per name.
    enum Timer: Sendable, Hashable {
        /// The waiting step runs out of time.
        case stepTimeout
        /// The waiting step's condition comes true with time (quiet, heard audio, the end of a
        /// pause or of the greeting's grace period): it is checked again then.
        case recheck
        /// On a dialect without an end-of-turn event: the open turn may have been quiet long enough.
        case quietCheck
        /// The next reply waiting for the audio before it to play out is due.
        case repliesPlayedOut
        /// A reply timed `after_ms` is due (its key in `delayedReplies`).
        case delayedReply(Int)
        /// The dialect's keep-alive message is due (`KeepAlivePolicy.everyMs` after the last).
        case keepAlive
    }

    /// What the driver does for the session. A `schedule` replaces the timer's earlier one.
    enum Action: Sendable, Hashable {
        case schedule(Timer, at: MonotonicInstant)
        case cancel(Timer)
        /// The waiting step goes on, or is woken with an error.
        case endStep(StepEnd)
        /// The outgoing audio stream stopped: the frame queued with the pacer is stale.
        case stopMicrophone
        /// Send what the dialect's codec makes of this intent.
        case send(ClientIntent)
        /// Send a frame the codec already made (its replies to the server).
        case sendFrame(WireFrame)
        /// Decode this frame, which arrived at `receivedAt`, with the dialect's codec and hand it
        /// to `receive(_:decoded:at:now:)` (a frame held until the connection opened, or one
        /// arriving on the open connection).
        case handleFrame(WireFrame, receivedAt: MonotonicInstant)
        /// Stop waiting for the connection being opened (the run winds down); one that opens
        /// after that is closed at once.
        case abandonConnect
        /// A user turn's row is complete.
        case emit(TurnRecord)
        case recordError(ErrorClass, ErrorEvidence, at: MonotonicInstant)
        case record(Figure)
        /// The session got ready (`ready` is recorded from the attempt's start).
        case ready(at: MonotonicInstant)
        /// The server acknowledged the session (`started_ms` is measured from the open).
        case sessionStarted(at: MonotonicInstant)
    }

    /// A count or measurement for the recorder.
    enum Figure: Sendable, Hashable {
        case metric(MetricName, microseconds: Int64)
        case toolCall
        case warning(code: String?)
        /// An event the dialect does not know, with its frame (an example, redacted).
        case unknownEvent(type: String, frame: WireFrame)
    }

    /// How a waiting step ends.
    enum StepEnd: Sendable, Hashable {
        case met
        case timedOut(StepTimedOut)
        /// The session failed (`SessionFailure`).
        case failed(SessionFailure)
        /// The run winds down (`SessionWoundDown`).
        case woundDown

        /// What the step throws; nil when it goes on.
        var error: (any Error)? {
            switch self {
            case .met: return nil
            case .timedOut(let timedOut): return timedOut
            case .failed(let failure): return failure
            case .woundDown: return SessionWoundDown()
            }
        }
    }
}
