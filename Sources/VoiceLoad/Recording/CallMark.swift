/// A moment of a recorded call on its recording's timeline (docs/recordings.md).
package struct CallMark: Sendable, Hashable, Codable {
    package enum Kind: String, Sendable, Hashable, Codable {
        case ready
        case speechEnd = "speech_end"
        case firstAudio = "first_audio"
        case bargeIn = "barge_in"
        case ack
        case stall
    }

    package var kind: Kind
    /// Since the connect, in ms (to 0.01).
    package var ms: Double
    /// The end of a stall, in ms since the connect.
    package var untilMs: Double?
    /// The turn (turns.csv `turn`) a speech end, first audio, barge-in or ack belongs to.
    package var turn: Int?

    enum CodingKeys: String, CodingKey {
        case kind, ms, turn
        case untilMs = "until_ms"
    }

    package init(_ kind: Kind, ms: Double, untilMs: Double? = nil, turn: Int? = nil) {
        self.kind = kind
        self.ms = ms
        self.untilMs = untilMs
        self.turn = turn
    }
}
