/// The warm-up of a run (`--warmup`): sessions and turns that started within it are left out
/// of every metric, count and threshold of the report.
package struct WarmupReport: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case durationS = "duration_s"
        case excludedSessions = "excluded_sessions"
        case excludedTurns = "excluded_turns"
    }

    package var durationS: Double
    package var excludedSessions: Int
    package var excludedTurns: Int

    package init(durationS: Double, excludedSessions: Int, excludedTurns: Int) {
        self.durationS = durationS
        self.excludedSessions = excludedSessions
        self.excludedTurns = excludedTurns
    }
}
