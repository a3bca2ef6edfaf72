/// How the replies of a run played for the caller (docs/audio-continuity.md): `audio_continuity`
/// in report.json. Over the turn rows whose reply had agent audio; `stall_ms` itself is a
/// metric with its histogram.
package struct AudioContinuityCounts: Sendable, Hashable, Codable {
    /// Turn rows whose reply had agent audio.
    package var turnsWithAudio = 0
    /// Those with at least one stall (`stall_count` > 0).
    package var stalledTurns = 0
    /// Stalls in all (the sum of `stall_count`).
    package var stalls = 0
    /// `reply_rtf` over the replies that have one (two chunks or more, over a span).
    package var replyRTF = RatioSummary()

    package init() {}

    /// `stalled_turn_rate`: stalled turns ÷ turns with agent audio, in percent; nil without such turns.
    package var stalledTurnRatePercent: Double? {
        turnsWithAudio > 0 ? Double(stalledTurns) / Double(turnsWithAudio) * 100 : nil
    }

    mutating func add(_ turn: TurnRecord) {
        guard let stallCount = turn.stallCount else { return }
        turnsWithAudio += 1
        if stallCount > 0 { stalledTurns += 1 }
        stalls += stallCount
        if let rtf = turn.replyRTF { replyRTF.add(rtf) }
    }

    /// Two runs' counts together (`vload merge`).
    package static func + (lhs: AudioContinuityCounts, rhs: AudioContinuityCounts) -> AudioContinuityCounts {
        var sum = lhs
        sum.turnsWithAudio += rhs.turnsWithAudio
        sum.stalledTurns += rhs.stalledTurns
        sum.stalls += rhs.stalls
        sum.replyRTF = lhs.replyRTF + rhs.replyRTF
        return sum
    }

    enum CodingKeys: String, CodingKey {
        case turnsWithAudio = "turns_with_audio"
        case stalledTurns = "stalled_turns"
        case stalls
        case stalledTurnRate = "stalled_turn_rate"
        case replyRTF = "reply_rtf"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        turnsWithAudio = try container.decode(Int.self, forKey: .turnsWithAudio)
        stalledTurns = try container.decode(Int.self, forKey: .stalledTurns)
        stalls = try container.decode(Int.self, forKey: .stalls)
        replyRTF = try container.decode(RatioSummary.self, forKey: .replyRTF)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(turnsWithAudio, forKey: .turnsWithAudio)
        try container.encode(stalledTurns, forKey: .stalledTurns)
        try container.encode(stalls, forKey: .stalls)
        try container.encodeIfPresent(stalledTurnRatePercent.map { ($0 * 1_000).rounded() / 1_000 }, forKey: .stalledTurnRate)
        try container.encode(replyRTF, forKey: .replyRTF)
    }
}

/// Count, min, mean and max of a unitless ratio (`reply_rtf`); merges exactly.
package struct RatioSummary: Sendable, Hashable, Codable {
    package var count = 0
    package var min: Double?
    package var mean: Double?
    package var max: Double?

    package init() {}

    mutating func add(_ value: Double) {
        let total = (mean ?? 0) * Double(count) + value
        count += 1
        mean = total / Double(count)
        min = Swift.min(min ?? value, value)
        max = Swift.max(max ?? value, value)
    }

    package static func + (lhs: RatioSummary, rhs: RatioSummary) -> RatioSummary {
        guard lhs.count > 0 else { return rhs }
        guard rhs.count > 0 else { return lhs }
        var sum = RatioSummary()
        sum.count = lhs.count + rhs.count
        sum.mean = ((lhs.mean ?? 0) * Double(lhs.count) + (rhs.mean ?? 0) * Double(rhs.count)) / Double(sum.count)
        sum.min = Swift.min(lhs.min ?? .infinity, rhs.min ?? .infinity)
        sum.max = Swift.max(lhs.max ?? -.infinity, rhs.max ?? -.infinity)
        return sum
    }
}
