/// Sessions and turns, counted as they start and end. The recorder keeps two: the report's
/// (what started after the warm-up) and the warm-up's; the live figures add them up, since
/// they follow the run's whole course.
package struct RunTotals: Sendable, Hashable {
    package var sessionsStarted = 0
    package var sessionsCompleted = 0
    package var sessionsFailed = 0
    /// Sessions wound down before their scenario ended (a signal, or the drain limit).
    package var sessionsWoundDown = 0
    package var turnsByOutcome: [TurnOutcome: Int] = [:]
    /// The turns whose answer ended, by what ended it (`turn_end_by`).
    package var turnEndsByCause: [TurnEndCause: Int] = [:]
    /// `TurnResumed` over the turns that count them (turns.csv `turns_resumed`, on runs that
    /// measure `eager_end_of_turn_ms`), and how many such turns there were.
    package var turnsResumed = 0
    package var turnsSignalled = 0

    package init() {}

    /// Turns of every outcome.
    package var turns: Int { turnsByOutcome.values.reduce(0, +) }

    package var turnsCompleted: Int { turnsByOutcome[.completed] ?? 0 }

    mutating func sessionEnded(_ outcome: SessionOutcome) {
        switch outcome {
        case .completed: sessionsCompleted += 1
        case .failed: sessionsFailed += 1
        case .woundDown: sessionsWoundDown += 1
        }
    }

    static func + (lhs: RunTotals, rhs: RunTotals) -> RunTotals {
        var sum = lhs
        sum.sessionsStarted += rhs.sessionsStarted
        sum.sessionsCompleted += rhs.sessionsCompleted
        sum.sessionsFailed += rhs.sessionsFailed
        sum.sessionsWoundDown += rhs.sessionsWoundDown
        sum.turnsByOutcome.merge(rhs.turnsByOutcome, uniquingKeysWith: +)
        sum.turnEndsByCause.merge(rhs.turnEndsByCause, uniquingKeysWith: +)
        sum.turnsResumed += rhs.turnsResumed
        sum.turnsSignalled += rhs.turnsSignalled
        return sum
    }
}
