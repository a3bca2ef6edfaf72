import WSCore

/// How a user turn (an utterance and the agent's response to it) ended.
package enum TurnOutcome: String, Sendable, Hashable, Codable {
    /// The agent answered and its turn ended.
    case completed
    /// The agent started its answer before the user had finished speaking (docs/metrics.md).
    case prematureResponse = "premature_response"
    /// The agent's turn ended by an interruption acknowledgement.
    case interrupted
    /// No answer, or no end of the answer, within the wait step's timeout: censored, not dropped.
    case timedOut = "timed_out"
    /// The session ended (closed, failed) before the answer was complete.
    case aborted
}

/// What ended the agent's turn that answered a row's utterance (`turn_end_by`, docs/metrics.md).
package enum TurnEndCause: String, Sendable, Hashable, Codable, CaseIterable {
    /// The dialect's end-of-turn event (OpenAI `response.done`, ElevenLabs
    /// `agent_response_complete`, …).
    case event
    /// A quiet gap in the agent's audio: on dialects without an end-of-turn event, and as the
    /// fallback of those whose event may not come.
    case quietGap = "quiet_gap"
    /// The caller's barge-in, acknowledged by the server.
    case interruption
}

/// One row of turns.csv: a user utterance and the agent's response, with every
/// timestamp-derived metric of the turn. Absent figures are nil ("n/a"), never zero.
///
/// Every figure is in whole microseconds, as the call attempt computed it from the monotonic
/// clock and as the recorder's histograms take it; turns.csv and the reports write it in
/// milliseconds (`CSVRowWriter.milliseconds`).
package struct TurnRecord: Sendable, Hashable {
    package var client: Int
    package var iteration: Int
    /// 1-based index of the utterance within the iteration.
    package var turn: Int
    package var label: String
    package var outcome: TurnOutcome
    /// Where speech starts and ends inside the sent audio (from the start of the clip);
    /// nil for an interrupt command, which has no speech.
    package var speechStartOffsetUs: Int64?
    package var speechEndOffsetUs: Int64?
    package var firstAudioFromEndUs: Int64?
    package var firstAudioFromStartUs: Int64?
    package var firstVoicedAudioFromEndUs: Int64?
    /// Manual turns only: the utterance's commit (sent after its clip) → first agent audio.
    package var firstAudioFromCommitUs: Int64?
    package var turnDurationUs: Int64?
    /// What ended the answer's turn; nil when it did not end (timed out, aborted) or there was none.
    package var turnEndBy: TurnEndCause?
    /// Audio continuity of the reply (docs/audio-continuity.md), on a row whose reply had
    /// audio: underruns after playback started, their silence, and audio ÷ arrival span.
    package var stallCount: Int?
    package var stallUs: Int64?
    package var replyRTF: Double?
    package var userTranscriptFirstPartialUs: Int64?
    package var userTranscriptFinalUs: Int64?
    package var endpointUs: Int64?
    /// The server's reading of the user's turn (Flux `TurnInfo`): its end and the eager end
    /// that stood, from the end of speech, and the eager ends withdrawn (`TurnResumed`); the
    /// count is nil unless the run measures `eager_end_of_turn_ms`.
    package var endOfTurnUs: Int64?
    package var eagerEndOfTurnUs: Int64?
    package var turnsResumed: Int?
    /// Barge-in figures (docs/metrics.md), on the row of the barge-in's utterance (or command).
    package var bargeIn = false
    /// No acknowledgement within the barge-in's `int_timeout_ms`; nil when not a barge-in.
    package var missedInterruption: Bool?
    /// The reply had been delivered in full before `T_bi_start` (`int_cutoff_ms` is then absent).
    package var audioAlreadyDelivered: Bool?
    /// An interrupt command the server found nothing to cancel for: the reply was complete
    /// before it arrived (not a CSV column; counted in `interruptions.late_cancels`).
    package var lateCancel = false
    package var intAckUs: Int64?
    package var intCutoffUs: Int64?
    package var intCancelUs: Int64?
    package var intCommandRttUs: Int64?
    /// Agent audio (its duration) of the interrupted turn that arrived after the acknowledgement.
    package var audioAfterAckUs: Int64?
    /// Backchannels spoken over the answer (`backchannel` steps), and how many of them stopped
    /// the agent within their stop window (docs/metrics.md, "Backchannels").
    package var backchannels = 0
    package var backchannelsStopped = 0
    /// When the user's speech began, on the monotonic clock: a turn that starts within the
    /// warm-up is left out of the metrics. Not a CSV column.
    package var speechStartAt: MonotonicInstant?

    package init(
        client: Int,
        iteration: Int,
        turn: Int,
        label: String,
        outcome: TurnOutcome,
        speechStartOffsetUs: Int64?,
        speechEndOffsetUs: Int64?,
        firstAudioFromEndUs: Int64? = nil,
        firstAudioFromStartUs: Int64? = nil,
        firstVoicedAudioFromEndUs: Int64? = nil,
        turnDurationUs: Int64? = nil
    ) {
        self.client = client
        self.iteration = iteration
        self.turn = turn
        self.label = label
        self.outcome = outcome
        self.speechStartOffsetUs = speechStartOffsetUs
        self.speechEndOffsetUs = speechEndOffsetUs
        self.firstAudioFromEndUs = firstAudioFromEndUs
        self.firstAudioFromStartUs = firstAudioFromStartUs
        self.firstVoicedAudioFromEndUs = firstVoicedAudioFromEndUs
        self.turnDurationUs = turnDurationUs
    }
}

extension TurnRecord {
    /// The metrics of a turn row, in column order; nil where the turn has no figure.
    package static let metricNames: [MetricName] = [
        .firstAudioFromEndMs, .firstAudioFromStartMs, .firstVoicedAudioFromEndMs, .firstAudioFromCommitMs, .turnDurationMs,
        .userTranscriptFirstPartialMs, .userTranscriptFinalMs, .endpointMs, .endOfTurnMs, .eagerEndOfTurnMs,
        .intAckMs, .intCutoffMs, .intCancelMs, .intCommandRttMs, .audioAfterAckMs, .stallMs,
    ]

    /// The value of one of `metricNames` for this turn, in µs.
    package func value(of metric: MetricName) -> Int64? {
        switch metric {
        case .firstAudioFromEndMs: return firstAudioFromEndUs
        case .firstAudioFromStartMs: return firstAudioFromStartUs
        case .firstVoicedAudioFromEndMs: return firstVoicedAudioFromEndUs
        case .firstAudioFromCommitMs: return firstAudioFromCommitUs
        case .turnDurationMs: return turnDurationUs
        case .userTranscriptFirstPartialMs: return userTranscriptFirstPartialUs
        case .userTranscriptFinalMs: return userTranscriptFinalUs
        case .endpointMs: return endpointUs
        case .endOfTurnMs: return endOfTurnUs
        case .eagerEndOfTurnMs: return eagerEndOfTurnUs
        case .intAckMs: return intAckUs
        case .intCutoffMs: return intCutoffUs
        case .intCancelMs: return intCancelUs
        case .intCommandRttMs: return intCommandRttUs
        case .audioAfterAckMs: return audioAfterAckUs
        case .stallMs: return stallUs
        default: return nil
        }
    }
}
