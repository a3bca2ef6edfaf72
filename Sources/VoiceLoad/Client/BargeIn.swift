import WSCore

/// One barge-in being measured (docs/metrics.md): when it started, the
/// agent turn it talked over, and what the server did about it.
struct BargeIn: Sendable, Hashable {
    /// The barge-in utterance it belongs to; nil for an interrupt command with no speech.
    let utteranceIndex: Int?
    let label: String
    /// `T_bi_start`: the barge-in speech starts in the stream (or the command is sent).
    let startedAt: MonotonicInstant
    /// `T_cmd_sent`, when vload sent the dialect's interrupt command.
    let commandSentAt: MonotonicInstant?
    /// With no acknowledgement by then, the barge-in is a `missed_interruption`.
    let deadline: MonotonicInstant
    /// The agent turn (by number) talked over; nil when the agent was not speaking.
    let interruptedTurn: Int?
    /// `T_int_ack`: the first acknowledgement after `startedAt`.
    var ackAt: MonotonicInstant?
    /// The first acknowledgement after the command was sent (`int_cmd_rtt_ms` runs to it; one
    /// that came earlier, from the server's VAD, is `int_ack_ms`).
    var commandAckAt: MonotonicInstant?
    /// Acknowledgements after the first: counted, not measured again.
    var duplicateAcks = 0
    /// The interrupted turn's response-cancelled event (`int_cancel_ms`), recorded apart from
    /// the cutoff, which only audio sets.
    var cancelledAt: MonotonicInstant?
    /// `T_int_cutoff`: the last audio chunk of the interrupted turn after `startedAt`.
    var cutoffAt: MonotonicInstant?
    /// Audio of the interrupted turn that still arrived after the acknowledgement.
    var audioAfterAckUs: Int64 = 0
    /// The server had nothing to cancel when the command arrived (OpenAI
    /// `response_cancel_not_active`).
    var lateCancel = false

    /// Whether it was acknowledged in time.
    var isAcknowledged: Bool {
        guard let ackAt else { return false }
        return ackAt <= deadline
    }

    /// An acknowledgement (or flush signal) arrived at `at`.
    mutating func acknowledge(at: MonotonicInstant) {
        guard at >= startedAt else { return }  // only what arrives after T_bi_start acknowledges it
        if let commandSentAt, at >= commandSentAt, commandAckAt == nil { commandAckAt = at }
        if ackAt == nil { ackAt = at } else { duplicateAcks += 1 }
    }

    /// A chunk of the interrupted turn arrived at `at`.
    mutating func interruptedTurnAudio(durationUs: Int64, at: MonotonicInstant) {
        guard at >= startedAt else { return }
        cutoffAt = at
        if let ackAt, at >= ackAt { audioAfterAckUs += durationUs }
    }

    /// Writes the interruption figures into the barge-in's row.
    func fill(_ row: inout TurnRecord) {
        row.bargeIn = true
        row.missedInterruption = !isAcknowledged
        row.lateCancel = lateCancel
        if isAcknowledged, let ackAt { row.intAckUs = ackAt.microseconds(since: startedAt) }
        if let commandSentAt, let commandAckAt, commandAckAt <= deadline {
            row.intCommandRttUs = commandAckAt.microseconds(since: commandSentAt)
        }
        if let cancelledAt { row.intCancelUs = cancelledAt.microseconds(since: startedAt) }
        guard interruptedTurn != nil else { return }
        // Ruling 5: no audio of the turn after T_bi_start means it had all been delivered.
        row.audioAlreadyDelivered = cutoffAt == nil
        row.intCutoffUs = cutoffAt?.microseconds(since: startedAt)
        if ackAt != nil { row.audioAfterAckUs = audioAfterAckUs }
    }
}
