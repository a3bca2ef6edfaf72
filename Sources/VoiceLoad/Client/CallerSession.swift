import WSCore

/// The behaviour of one simulated caller on one connection, as a value-type state machine:
/// step starts, connection events and timer expiries in, each with its instant; actions out.
/// It reads no clock and touches no socket; `VirtualClient` drives it on the connection's
/// event loop and carries out its actions. It pairs with the agent simulator's `SimulatorSession`.
///
/// The parts live in extensions: the connection's state, the frames held before it opens and
/// the keep-alive (`+Connection`), what the scenario's steps decide (`+Steps`), the server's
/// events (`+Events`), the replies timed by playback or delay and the quiet gap that ends a
/// turn (`+Replies`), the waiting step and its conditions (`+Waiting`), and what a failure or
/// a wind-down does to the session (`+WindDown`); the actions and timers are declared in
/// `+Action`.
struct CallerSession: Sendable {
    /// A step suspended until its condition holds, it times out, or the session fails.
    struct Wait: Sendable, Hashable {
        let condition: WaitCondition
        let stepName: String
        /// When it times out.
        let endsAt: MonotonicInstant
    }

    /// A tool call of the agent waiting for a `tool_reply` step.
    struct ToolCall: Sendable, Hashable {
        var name: String
        var id: String?
    }

    /// How the dialect signals ready, and the end of an agent turn.
    let readySignal: ReadySignal
    let turnEndSignal: TurnEndSignal
    /// The dialect's keep-alive, if it has one (`keepAlive` timer).
    let keepAlive: KeepAlivePolicy?
    /// Where the connection is; frames that arrived before it opened, in order.
    var connectionState = ConnectionState.connecting
    var framesBeforeOpen: [HeldFrame] = []
    /// When the connection opened (the upgrade's 101).
    var openedAt: MonotonicInstant?
    /// The session's attempts so far (reconnects), carried from one attempt's caller to the next.
    var attempts: SessionAttempts
    /// Set when the run winds down: the session hangs up by then, and no step starts. Carried
    /// from one caller to the next (the client starts no session after it).
    var windDownDeadline: MonotonicInstant?
    /// The agent's turns, the caller's utterances and the playback cursor.
    var tracker: TurnTracker
    /// The caller's outgoing audio stream, once a step opened it.
    var microphone: Microphone?
    /// When the audio stream opened (`T_mic_open` of its first clip): stream position p was
    /// spoken at `streamOpenedAt + p`.
    var streamOpenedAt: MonotonicInstant?
    /// Whether the caller is hanging up: the connection's end is no failure then.
    var hangingUp = false
    var readyAt: MonotonicInstant?
    /// When the server said the session is over, or the connection ended.
    var sessionEndedAt: MonotonicInstant?
    /// The latest `finalize` step's request, and the arrival of the result it flushed.
    var finalizeSentAt: MonotonicInstant?
    var finalizedAt: MonotonicInstant?
    /// Whether the event a `wait: event | transcript | tool_call` step waits for has arrived
    /// (checked per event only while such a step waits).
    var awaitedEventArrived = false
    /// Tool calls not yet answered by a `tool_reply` step, oldest first.
    var pendingToolCalls: [ToolCall] = []
    /// Why the session cannot go on (the first reason).
    var failure: SessionFailure?
    /// The step waiting, if one is.
    var wait: Wait?
    /// Replies the dialect wants sent once the audio received before them has played, in order.
    var repliesWhenPlayedOut: [DueReply] = []
    /// Replies timed `after_ms` not yet sent, by the key of their `delayedReply` timer.
    var delayedReplies: [Int: WireFrame] = [:]
    var nextDelayedReplyKey = 0
    /// When the `quietCheck` timer is set for.
    var quietCheckAt: MonotonicInstant?

    init(
        tracker configuration: TurnTracker.Configuration,
        client: Int,
        iteration: Int,
        readySignal: ReadySignal = .event,
        turnEndSignal: TurnEndSignal = .event,
        keepAlive: KeepAlivePolicy? = nil,
        attempts: SessionAttempts = SessionAttempts(policy: nil),
        windDownDeadline: MonotonicInstant? = nil
    ) {
        self.tracker = TurnTracker(configuration: configuration, client: client, iteration: iteration)
        self.readySignal = readySignal
        self.turnEndSignal = turnEndSignal
        self.keepAlive = keepAlive
        self.attempts = attempts
        self.windDownDeadline = windDownDeadline
    }

    /// The session cannot go on: remembers why (the first reason), stops the microphone and
    /// wakes the waiting step with that failure.
    mutating func fail(_ failure: SessionFailure) -> [Action] {
        if self.failure == nil { self.failure = failure }
        return stopMicrophone() + endWait(.failed(self.failure ?? failure))
    }

    /// Opens the outgoing audio stream at `now` unless it is open (`opened`: its pacing is to
    /// start) and, with `clip`, starts speaking it at the stream's next frame slot. `micOpenAt`
    /// is that slot's start (`T_mic_open` of the clip).
    mutating func openMicrophone(
        frameMs: Int,
        at now: MonotonicInstant,
        speaking clip: FrameSet?
    ) -> (micOpenAt: MonotonicInstant, opened: Bool) {
        let opened = microphone == nil
        var stream = microphone ?? Microphone(frameMs: frameMs, openedAt: now)
        let micOpenAt = clip.map { stream.start($0) } ?? stream.nextFrameStart
        if opened { streamOpenedAt = stream.openedAt }
        microphone = stream
        return (micOpenAt, opened)
    }

    /// The outgoing audio stream stops (a queued frame is stale).
    mutating func stopMicrophone() -> [Action] {
        microphone = nil
        return [.stopMicrophone]
    }

    mutating func timerFired(_ timer: Timer, at now: MonotonicInstant) -> [Action] {
        switch timer {
        case .stepTimeout: return waitTimedOut(at: now)
        case .recheck: return checkWait(at: now)
        case .quietCheck: return quietCheckDue(at: now)
        case .repliesPlayedOut: return sendRepliesPlayedOut(at: now)
        case .delayedReply(let key): return delayedReplyDue(key)
        case .keepAlive: return keepAliveDue(at: now)
        }
    }
}
