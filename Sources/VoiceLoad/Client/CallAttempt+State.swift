import WSCore

extension CallAttempt {
    /// What changes in an attempt as its events come in, beyond the connection's phase and the
    /// REST step, connect, hang-up and failure (`CallAttempt.swift`). The attempt holds it
    /// privately; only the attempt's own methods change it, through `CallAttempt.state`.
    struct State: Sendable {
        /// The agent's turns, the caller's utterances and the playback cursor.
        var tracker: TurnTracker
        /// Set when the run winds down: the caller hangs up by then, and no step starts. Carried
        /// from one attempt to the next (the caller places no call after it).
        var windDownDeadline: MonotonicInstant?
        /// The caller's outgoing audio stream, once a step opened it.
        var microphone: Microphone?
        /// When the audio stream opened (`T_mic_open` of its first clip): stream position p was
        /// spoken at `streamOpenedAt + p`.
        var streamOpenedAt: MonotonicInstant?
        /// When the server acknowledged the session (its first such event).
        var sessionStartedAt: MonotonicInstant?
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
        /// The step waiting, if one is.
        var wait: Wait?
        /// Replies the dialect wants sent once the audio received before them has played, in order.
        var repliesWhenPlayedOut: [DueReply] = []
        /// Replies timed `after_ms` not yet sent, by the key of their `delayedReply` timer.
        var delayedReplies: [Int: CodecReply.Content] = [:]
        var nextDelayedReplyKey = 0
        /// When the `quietCheck` timer is set for.
        var quietCheckAt: MonotonicInstant?
        /// When the `recheck` timer is set for, while a step waits.
        var recheckAt: MonotonicInstant?
        /// The agent's audio as it played, for a call that may be recorded (`CallAttempt+Recording`).
        var agentCapture: AgentAudioCapture?

        init(tracker: TurnTracker, windDownDeadline: MonotonicInstant?) {
            self.tracker = tracker
            self.windDownDeadline = windDownDeadline
        }
    }
}
