import WSCore

/// What a call that may be recorded keeps while it goes on (docs/recordings.md): no audio of
/// the caller's own, only which prepared clip began where (the microphone's left channel is
/// made from the shared clips after the call), the agent's audio as each attempt's playback
/// placed it (`AgentAudioCapture`), and the moments its marks come from. `VirtualClient` feeds
/// it, never per frame sent.
package struct CallRecording: Sendable {
    /// A clip the caller began to speak at `startsAt` (its `T_mic_open`).
    package struct Clip: Sendable {
        package var frames: FrameSet
        package var startsAt: MonotonicInstant
    }

    package let client: Int
    package let iteration: Int
    /// The first connect (or REST pre-step) of the call: the recording's time 0.
    package private(set) var connectAt: MonotonicInstant?
    package private(set) var clips: [Clip] = []
    /// When the microphone stopped (hang-up, the end of an attempt): a clip stops there.
    package private(set) var microphoneStops: [MonotonicInstant] = []
    /// The agent's audio of each attempt, in order.
    package private(set) var agentAudio: [AgentAudioCapture] = []
    package private(set) var readyAt: [MonotonicInstant] = []
    /// The call's turn rows, as emitted.
    package private(set) var turns: [TurnRecord] = []

    package init(client: Int, iteration: Int) {
        self.client = client
        self.iteration = iteration
    }

    package mutating func connectStarted(at: MonotonicInstant) {
        if connectAt == nil { connectAt = at }
    }

    package mutating func clipStarted(_ frames: FrameSet, at: MonotonicInstant) {
        clips.append(Clip(frames: frames, startsAt: at))
    }

    package mutating func microphoneStopped(at: MonotonicInstant) {
        microphoneStops.append(at)
    }

    package mutating func ready(at: MonotonicInstant) {
        readyAt.append(at)
    }

    package mutating func turnEmitted(_ turn: TurnRecord) {
        turns.append(turn)
    }

    package mutating func attemptEnded(agentAudio capture: AgentAudioCapture?) {
        if let capture { agentAudio.append(capture) }
    }

    /// The call, ended at `endedAt` with `session` as its row; nil when it never connected.
    package func finished(session: SessionRecord, endedAt: MonotonicInstant) -> FinishedCall? {
        guard let connectAt, endedAt >= connectAt else { return nil }
        return FinishedCall(recording: self, session: session, connectAt: connectAt, endedAt: endedAt)
    }
}

/// A call that has ended, as the recordings desk weighs and writes it.
package struct FinishedCall: Sendable {
    package var recording: CallRecording
    package var session: SessionRecord
    package var connectAt: MonotonicInstant
    package var endedAt: MonotonicInstant

    package var durationUs: Int64 { endedAt.microseconds(since: connectAt) }

    /// The slowest `first_audio_from_end_ms` of its turns, in µs; nil when no turn had one.
    package var slowestFirstAudioUs: Int64? {
        recording.turns.compactMap(\.firstAudioFromEndUs).max()
    }

    /// Whether it failed, or a turn timed out.
    package var failed: Bool {
        session.outcome == .failed || recording.turns.contains { $0.outcome == .timedOut }
    }

    /// Whether a turn's figure lies beyond one of `thresholds` on a latency metric (a bound on
    /// its mean, min, max or a percentile, `label` matched): the turn broke it.
    package func brokeThreshold(_ thresholds: [ThresholdExpression]) -> Bool {
        thresholds.contains { threshold in
            guard case .latency(let metric) = threshold.metric else { return false }
            switch threshold.aggregation {
            case .count, .rate: return false
            case .mean, .min, .max, .percentile: break
            }
            return recording.turns.contains { turn in
                guard threshold.label == nil || threshold.label == turn.label, let valueUs = turn.value(of: metric) else { return false }
                return !threshold.comparison.holds(Double(valueUs) / 1_000, threshold.bound)
            }
        }
    }

    /// The recording's file name without its extension: `client-3-iteration-0`.
    package var baseName: String { "client-\(recording.client)-iteration-\(recording.iteration)" }
}
