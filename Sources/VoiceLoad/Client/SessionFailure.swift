/// Why a session stopped before its scenario finished.
struct SessionFailure: Error, Sendable {
    let errorClass: ErrorClass
}

/// The run is winding down (a signal, or its drain limit): the session hangs up now, its
/// outcome `interrupted`.
struct SessionWoundDown: Error, Sendable {}

/// A wait ran out of time; the step's `on_timeout` decides what follows.
struct StepTimedOut: Error, Sendable {
    let step: String
}

/// What a step of the scenario is waiting for.
enum WaitCondition: Sendable {
    case ready
    /// At least this many agent turns have ended.
    case agentTurnsEnded(Int)
    /// The latest utterance has its row: its answer ended (or it was censored).
    case latestUtteranceRecorded
    /// The greeting has ended, or none began before this moment.
    case greeting(graceEndsAt: MonotonicInstant)
    /// An agent turn is under way, or more than this many have started.
    case agentAudio(turnsStartedBefore: Int)
    /// No agent audio arrived, and none was left to play, for `ms` (counted from `since` at the earliest).
    case quiet(ms: Int, since: MonotonicInstant)
    /// An event of this kind (and role or tool name) arrived after the step began.
    case event(EventMatch)
    /// A tool call is waiting for its result.
    case toolCallPending
    /// `targetUs` of the agent's current turn has played on the playback cursor.
    case heard(targetUs: Int64)
    /// The interrupt command's row can be written (acknowledged and quiet, or its deadline passed).
    case commandInterruptionSettled
    /// This moment has come (paced silence, think time).
    case until(MonotonicInstant)
    /// The clip being spoken has been sent in full.
    case clipSent
    /// The server said the session is over, or closed it.
    case sessionEnded
}

/// The events a `wait: event | transcript | tool_call` step waits for.
struct EventMatch: Sendable, Hashable {
    var kind: NormalizedEvent.Kind
    /// A transcript's role (`user`, `agent`); nil for any.
    var role: String?
    /// A tool call's name; nil for any.
    var toolName: String?

    func matches(_ event: NormalizedEvent) -> Bool {
        guard event.kind == kind else { return false }
        switch event {
        case .transcript(let eventRole, _, _): return role.map { $0 == eventRole } ?? true
        case .speechResult: return role.map { $0 == "user" } ?? true
        case .toolCall(let name, _, _, _): return toolName.map { $0 == name } ?? true
        default: return true
        }
    }
}

/// A step suspended until its condition holds, it times out, or the session fails.
struct PendingWait {
    let condition: WaitCondition
    let stepName: String
    let continuation: CheckedContinuation<Void, any Error>
    /// When it times out.
    let endsAt: MonotonicInstant
}
