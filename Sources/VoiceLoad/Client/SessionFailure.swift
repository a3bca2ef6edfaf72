/// Why a session stopped before its scenario finished.
struct SessionFailure: Error, Sendable {
    let errorClass: ErrorClass
}

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
    /// More than `countBefore` events with this key (`user.speech_stopped`, `transcript:user`, `tool.call:NAME`).
    case event(key: String, countBefore: Int)
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

/// A step suspended until its condition holds, it times out, or the session fails.
struct PendingWait {
    let condition: WaitCondition
    let stepName: String
    let continuation: CheckedContinuation<Void, any Error>
}
