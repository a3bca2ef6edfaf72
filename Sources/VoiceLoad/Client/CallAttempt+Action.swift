import WSCore

extension CallAttempt {
    /// The attempt's named timers; `VirtualClient` keeps one scheduled task per name.
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

    /// What the driver does for the attempt. A `schedule` replaces the timer's earlier one.
    enum Action: Sendable, Hashable {
        case schedule(Timer, at: MonotonicInstant)
        case cancel(Timer)
        /// The waiting step goes on, or is woken with an error.
        case endStep(StepEnd)
        /// The outgoing audio stream stopped: the frame queued with the pacer is stale.
        case stopMicrophone
        /// Send this frame, encoded by the dialect's codec (an intent's, or a reply to the server).
        case sendFrame(WireFrame)
        /// Stop waiting for the connection being opened (the run winds down); one that opens
        /// after that is closed at once.
        case abandonConnect
        /// A turn's row is complete. Boxed: the row is hundreds of bytes, and unboxed it made
        /// every action that size, copied whole on each frame's wait check (BENCHMARKS.md,
        /// "Instructions per frame").
        indirect case emit(TurnRecord)
        case recordError(ErrorClass, ErrorEvidence, at: MonotonicInstant)
        case record(Figure)
        /// The attempt got ready (`ready` is recorded from the attempt's start).
        case ready(at: MonotonicInstant)
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
        /// The attempt failed (`SessionFailure`).
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

    /// What a check of the waiting step leads to (`checkWait(at:)`). The check runs for every
    /// frame while a step waits, so going on waiting allocates nothing: no action, or the one
    /// that sets or cancels the `recheck` timer when its moment changed.
    enum WaitCheck: Sendable, Hashable {
        /// No step waits, or it goes on waiting; `timer` sets or cancels its `recheck` timer.
        case waiting(timer: Action?)
        /// Its condition holds: these actions end it.
        case met([Action])

        /// Appends the check's actions to `actions`; appending none leaves an empty list
        /// unallocated.
        func append(to actions: inout [Action]) {
            switch self {
            case .waiting(let timer?): actions.append(timer)
            case .waiting(nil): break
            case .met(let ending): actions += ending
            }
        }

        /// The check's actions, for a path that runs once per step or timer.
        var actions: [Action] {
            var actions: [Action] = []
            append(to: &actions)
            return actions
        }
    }

    /// What a step that starts waiting does (`beginWait`).
    enum WaitStart: Sendable, Hashable {
        /// It does not wait: its condition holds already (`met`), or it ends at once (the
        /// attempt's failure, a wind-down while the caller is not hanging up).
        case ended(StepEnd)
        /// It waits until an `endStep` action wakes it; the actions set its timers.
        case waiting([Action])
    }

    /// What the driver does to hang up (`hangUp(connected:)`).
    struct HangUp: Sendable, Hashable {
        /// Stop the microphone, and send the dialect's stop frames.
        var actions: [Action]
        /// Whether to wait for the server's end-of-session event before closing: the dialect
        /// sent a stop and its server answers it with one.
        var awaitsSessionEnd: Bool
    }

    /// A frame of the outgoing audio stream, due by the instant asked, encoded for the wire.
    struct DueFrame: Sendable {
        var frame: EncodedFrame
        var deadline: MonotonicInstant
        /// Whether it was the last frame of the clip being spoken.
        var clipFinished: Bool
    }

    /// What the outgoing audio stream has at an instant (`takeDueFrame(by:silence:)`): the
    /// driver sends frames until it hears when to come back, with no look into the attempt.
    enum NextFrame: Sendable {
        /// Send this one, and ask again.
        case due(DueFrame)
        /// None is due yet: the next is due at `at` (the pacer's next wake-up).
        case notYet(at: MonotonicInstant)
        /// The stream is not open.
        case stopped
    }

    /// The outgoing audio stream opened, or a clip started on it (`openMicrophone`).
    struct MicrophoneOpened: Sendable, Hashable {
        /// The start of the clip's first frame slot (`T_mic_open` of the clip).
        var micOpenAt: MonotonicInstant
        /// When the stream's first frame is due, when it just opened (its pacing is to start);
        /// nil when it was open already.
        var firstFrameDueAt: MonotonicInstant?
    }
}
