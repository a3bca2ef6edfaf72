/// How the barge-ins of a run went.
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

    package init() {}

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
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bargeIns = try container.decode(Int.self, forKey: .bargeIns)
        acknowledged = try container.decode(Int.self, forKey: .acknowledged)
        missed = try container.decode(Int.self, forKey: .missed)
        audioAlreadyDelivered = try container.decode(Int.self, forKey: .audioAlreadyDelivered)
        // Absent in reports of earlier versions.
        lateCancels = try container.decodeIfPresent(Int.self, forKey: .lateCancels) ?? 0
    }
}
