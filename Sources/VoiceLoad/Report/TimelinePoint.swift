/// One bucket of report.json's `timeline`: what happened between `t_s` and `t_s + width_s`
/// seconds after the run's start.
package struct TimelinePoint: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case tS = "t_s"
        case widthS = "width_s"
        case activeSessions = "active_sessions"
        case sessionsStarted = "sessions_started"
        case turnsCompleted = "turns_completed"
        case errors
        case firstAudioFromEndMs = "first_audio_from_end_ms"
    }

    /// Start of the bucket, in seconds from the run's start.
    package var tS: Double
    package var widthS: Double
    /// The most sessions open at once during the bucket.
    package var activeSessions: Int
    package var sessionsStarted: Int
    package var turnsCompleted: Int
    package var errors: Int
    /// First-audio latency of the turns that finished in the bucket.
    package var firstAudioFromEndMs: Latency

    package init(
        tS: Double,
        widthS: Double,
        activeSessions: Int,
        sessionsStarted: Int,
        turnsCompleted: Int,
        errors: Int,
        firstAudioFromEndMs: Latency
    ) {
        self.tS = tS
        self.widthS = widthS
        self.activeSessions = activeSessions
        self.sessionsStarted = sessionsStarted
        self.turnsCompleted = turnsCompleted
        self.errors = errors
        self.firstAudioFromEndMs = firstAudioFromEndMs
    }

    /// A latency in one bucket; with no samples only `count` (0) is present.
    package struct Latency: Codable, Sendable, Hashable {
        package var count: Int
        package var p50: Double?
        package var p95: Double?
        package var max: Double?

        package init(count: Int, p50: Double? = nil, p95: Double? = nil, max: Double? = nil) {
            self.count = count
            self.p50 = p50
            self.p95 = p95
            self.max = max
        }
    }
}
