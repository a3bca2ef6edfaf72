/// What a run's progress is measured against: the planned duration of a time-bounded run
/// (`--duration`), else the planned number of sessions (clients × iterations).
package enum ProgressTotal: Sendable, Hashable {
    case durationMs(Int)
    case sessions(Int)

    /// The share of the run done, 0...1: elapsed time over the duration, or ended sessions
    /// over the planned ones.
    package func fraction(of figures: LiveFigures) -> Double {
        let ratio: Double
        switch self {
        case .durationMs(let durationMs):
            ratio = durationMs > 0 ? figures.elapsedMs / Double(durationMs) : 1
        case .sessions(let sessions):
            ratio = sessions > 0 ? Double(figures.sessionsEnded) / Double(sessions) : 1
        }
        return min(1, max(0, ratio))
    }
}
