/// How the barge-ins of a run went, and its backchannels (docs/metrics.md, "Backchannels").
package struct BargeInCounts: Sendable, Hashable, Codable {
    package var bargeIns = 0
    package var acknowledged = 0
    /// No acknowledgement within `int_timeout_ms` (`missed_interruption`).
    package var missed = 0
    /// The reply had been delivered in full before the barge-in began.
    package var audioAlreadyDelivered = 0
    /// Interrupt commands the server found nothing to cancel for (OpenAI
    /// `response_cancel_not_active`): the reply was complete first. Not errors.
    package var lateCancels = 0
    /// `backchannel_count`, and those the agent stopped for: over the sessions, warm-up excluded.
    package var backchannels = 0
    package var backchannelsStopped = 0

    package init() {}

    /// `false_barge_in_rate`: backchannels the agent stopped for ÷ backchannels, in percent;
    /// nil without backchannels.
    package var falseBargeInRatePercent: Double? {
        Backchannels.Count(spoken: backchannels, stopped: backchannelsStopped).ratePercent
    }

    /// A session's backchannels.
    mutating func add(_ backchannels: Backchannels.Count) {
        self.backchannels += backchannels.spoken
        backchannelsStopped += backchannels.stopped
    }

    mutating func add(_ turn: TurnRecord) {
        bargeIns += 1
        if turn.missedInterruption == true { missed += 1 } else { acknowledged += 1 }
        if turn.audioAlreadyDelivered == true { audioAlreadyDelivered += 1 }
        if turn.lateCancel { lateCancels += 1 }
    }

    enum CodingKeys: String, CodingKey {
        case bargeIns = "barge_ins"
        case acknowledged
        case missed = "missed_interruptions"
        case audioAlreadyDelivered = "audio_already_delivered"
        case lateCancels = "late_cancels"
        case backchannels = "backchannel_count"
        case backchannelsStopped = "backchannels_stopped"
        case falseBargeInRate = "false_barge_in_rate"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bargeIns = try container.decode(Int.self, forKey: .bargeIns)
        acknowledged = try container.decode(Int.self, forKey: .acknowledged)
        missed = try container.decode(Int.self, forKey: .missed)
        audioAlreadyDelivered = try container.decode(Int.self, forKey: .audioAlreadyDelivered)
        // Absent in reports of earlier versions.
        lateCancels = try container.decodeIfPresent(Int.self, forKey: .lateCancels) ?? 0
        backchannels = try container.decodeIfPresent(Int.self, forKey: .backchannels) ?? 0
        backchannelsStopped = try container.decodeIfPresent(Int.self, forKey: .backchannelsStopped) ?? 0
    }

    /// The backchannel figures only in a run that spoke backchannels.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bargeIns, forKey: .bargeIns)
        try container.encode(acknowledged, forKey: .acknowledged)
        try container.encode(missed, forKey: .missed)
        try container.encode(audioAlreadyDelivered, forKey: .audioAlreadyDelivered)
        try container.encode(lateCancels, forKey: .lateCancels)
        guard let rate = falseBargeInRatePercent else { return }
        try container.encode(backchannels, forKey: .backchannels)
        try container.encode(backchannelsStopped, forKey: .backchannelsStopped)
        try container.encode((rate * 1_000).rounded() / 1_000, forKey: .falseBargeInRate)
    }
}
