import WSCore

/// A run as it stands while it goes on: what the progress line and the metrics endpoint show,
/// read from the `Recorder` once per tick (`Recorder.liveFigures(at:)`).
///
/// Unlike the report, the live figures count the warm-up too: they follow the run's course.
package struct LiveFigures: Sendable, Hashable {
    /// First-audio percentiles cover the turns that finished within this many seconds before now.
    package static let windowS = 10

    /// Time since the run started.
    package var elapsedMs: Double
    /// Sessions open now.
    package var activeSessions: Int
    package var sessionsStarted: Int
    package var sessionsCompleted: Int
    package var sessionsFailed: Int
    /// Sessions wound down before their scenario ended.
    package var sessionsWoundDown = 0
    package var turnsCompleted: Int
    /// Errors so far, by class (`connect_failed`, `timeout_ready`, …).
    package var errorsByClass: [String: Int]
    /// Audio frames the generator has sent.
    package var framesSent: Int
    /// Scheduled starts an open model could not make, so far.
    package var droppedStarts = 0
    /// `first_audio_from_end_ms` p50 and p95 of the turns that finished in the last
    /// `windowS` seconds; nil when none did.
    package var firstAudioP50Ms: Double?
    package var firstAudioP95Ms: Double?
    /// `send_lag_ms` p99 over the run so far; nil before the first frame.
    package var sendLagP99Ms: Double?
    /// `receive_lag_ms` p99 over the run so far; nil before the probe's first read.
    package var receiveLagP99Ms: Double?

    package init(
        elapsedMs: Double,
        activeSessions: Int = 0,
        sessionsStarted: Int = 0,
        sessionsCompleted: Int = 0,
        sessionsFailed: Int = 0,
        turnsCompleted: Int = 0,
        errorsByClass: [String: Int] = [:],
        framesSent: Int = 0,
        firstAudioP50Ms: Double? = nil,
        firstAudioP95Ms: Double? = nil,
        sendLagP99Ms: Double? = nil
    ) {
        self.elapsedMs = elapsedMs
        self.activeSessions = activeSessions
        self.sessionsStarted = sessionsStarted
        self.sessionsCompleted = sessionsCompleted
        self.sessionsFailed = sessionsFailed
        self.turnsCompleted = turnsCompleted
        self.errorsByClass = errorsByClass
        self.framesSent = framesSent
        self.firstAudioP50Ms = firstAudioP50Ms
        self.firstAudioP95Ms = firstAudioP95Ms
        self.sendLagP99Ms = sendLagP99Ms
    }

    /// Errors of every class.
    package var errors: Int { errorsByClass.values.reduce(0, +) }

    /// Sessions that have ended, completed, failed or interrupted.
    package var sessionsEnded: Int { sessionsCompleted + sessionsFailed + sessionsWoundDown }

    /// The figures of a recorder's state and its loops' at `instant`; reads only what it needs.
    init(state: borrowing Recorder.Snapshot, loops: LoopRecorder.Figures, at instant: MonotonicInstant) {
        let firstAudio = state.timeline.recentFirstAudio(windowMs: Double(Self.windowS * 1_000), endingAt: instant)
        let totals = state.totals + state.warmupTotals
        self.init(
            elapsedMs: max(0, instant.milliseconds(since: state.timeline.startedAt)),
            activeSessions: state.timeline.activeSessions,
            sessionsStarted: totals.sessionsStarted,
            sessionsCompleted: totals.sessionsCompleted,
            sessionsFailed: totals.sessionsFailed,
            turnsCompleted: totals.turnsCompleted,
            errorsByClass: state.errors,
            framesSent: loops.framesSent,
            firstAudioP50Ms: firstAudio.p50,
            firstAudioP95Ms: firstAudio.p95,
            sendLagP99Ms: Self.p99Ms(loops.sendLag)
        )
        droppedStarts = state.droppedStarts.values.reduce(0, +)
        sessionsWoundDown = totals.sessionsWoundDown
        receiveLagP99Ms = Self.p99Ms(loops.receiveLag)
    }

    /// A generator lag's p99 in ms; nil without samples.
    private static func p99Ms(_ lag: LatencyHistogram?) -> Double? {
        guard let lag, lag.count > 0 else { return nil }
        return Double(lag.histogram.valueAtPercentile(99)) / 1_000
    }
}
