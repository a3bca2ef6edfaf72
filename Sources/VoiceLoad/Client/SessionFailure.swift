/// Why a session stopped before its scenario finished.
struct SessionFailure: Error, Sendable {
    let errorClass: ErrorClass
}

/// What a step of the scenario is waiting for.
enum WaitCondition: Sendable {
    case ready
    /// At least this many agent turns have ended.
    case agentTurnsEnded(Int)
    /// The greeting has ended, or none began before this moment.
    case greeting(graceEndsAt: MonotonicInstant)
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
