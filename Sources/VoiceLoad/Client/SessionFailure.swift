import WSCore

/// Why a session stopped before its scenario finished: the class it is counted under, and
/// the facts its report example is made of (redacted when, and only if, it is one).
struct SessionFailure: Error, Sendable, Hashable {
    let errorClass: ErrorClass
    let evidence: ErrorEvidence

    init(_ errorClass: ErrorClass, _ evidence: ErrorEvidence) {
        self.errorClass = errorClass
        self.evidence = evidence
    }
}

extension SessionFailure {
    /// The server's close before the scenario hung up: `closed_by_server_<code>`, or
    /// `beta_api_removed` when OpenAI refuses the Realtime beta interface, whose example says
    /// what to change.
    static func serverClosed(code: Int?, reason: String?) -> SessionFailure {
        typealias Name = OpenAIRealtimeEventName
        guard code == Name.betaRemovedCloseCode, reason == Name.betaRemovedCloseReason else {
            return SessionFailure(.closedByServer(code: code), .close(code: code, reason: reason))
        }
        return SessionFailure(.betaAPIRemoved, .text(Name.betaRemovedAdvice))
    }
}

/// The run is winding down (a signal, or its drain limit): the session hangs up now, its
/// outcome `interrupted`.
struct SessionWoundDown: Error, Sendable {}

/// A wait ran out of time; the step's `on_timeout` decides what follows.
struct StepTimedOut: Error, Sendable, Hashable {
    let step: String
    /// For a wait on the end of an agent turn, on a dialect whose turns end by event: how long (µs)
    /// before the deadline the open turn's audio had stopped (at least `quiet_ms`), when it
    /// had (`missing_turn_end`). nil when the agent never answered or was still speaking.
    var turnEndOverdueUs: Int64?
}

/// What a step of the scenario is waiting for.
enum WaitCondition: Sendable, Hashable {
    /// Whether this waits for an agent turn to end (`wait: agent_turn_end`, the greeting).
    var awaitsTurnEnd: Bool {
        switch self {
        case .agentTurnsEnded, .latestUtteranceRecorded, .greeting: return true
        default: return false
        }
    }

    /// What a wait that ran out of time had waited for, for its error example:
    /// `no ready within 10000 ms`.
    func timeoutText(afterMs timeoutMs: Int) -> String {
        let within = "within \(timeoutMs) ms"
        switch self {
        case .ready: return "no ready \(within)"
        case .agentTurnsEnded, .latestUtteranceRecorded: return "no end of the agent's turn \(within)"
        case .greeting: return "the greeting did not end \(within)"
        case .agentAudio: return "no agent audio \(within)"
        case .quiet(let ms, _): return "no \(ms) ms of quiet \(within)"
        case .event(let match):
            let what = [match.kind.rawValue, match.role, match.toolName].compactMap { $0 }.joined(separator: " ")
            return "no \(what) event \(within)"
        case .toolCallPending: return "no tool call \(within)"
        case .heard(let targetUs): return "\(targetUs / 1_000) ms of agent audio not heard \(within)"
        case .commandInterruptionSettled: return "the interruption did not settle \(within)"
        case .until: return "the pause did not end \(within)"
        case .clipSent: return "the clip was not sent \(within)"
        case .sessionEnded: return "no end of session \(within)"
        case .finalized: return "no result of the finalize request \(within)"
        }
    }

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
    /// The result the server flushed for the client's finalize request has arrived.
    case finalized
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
