/// The normalized event names a custom dialect declares in `events` (docs/custom-dialects.md),
/// in the fixed order in which one frame's events are emitted. Agent audio (declared in
/// `audio.output.extract`) takes its place in this order: after `agent.speech_started`,
/// before `transcript`.
package enum CustomEventName: String, CaseIterable, Sendable {
    case sessionStarted = "session.started"
    case sessionReady = "session.ready"
    case userSpeechStarted = "user.speech_started"
    case userSpeechStopped = "user.speech_stopped"
    case agentInterrupted = "agent.interrupted"
    case agentSpeechStarted = "agent.speech_started"
    case agentAudio = "agent.audio"
    case transcript
    case toolCall = "tool.call"
    case agentSpeechEnded = "agent.speech_ended"
    case turnComplete = "turn.complete"
    case error
    case sessionEnded = "session.ended"

    /// Position in the emission order.
    package var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// The names `events` may declare (every one but agent audio).
    package static let declarable = allCases.filter { $0 != .agentAudio }

    /// The keys a rule for this event takes besides `match`.
    package var fieldNames: [String] {
        switch self {
        case .sessionStarted: return ["ids"]
        case .agentSpeechStarted, .agentSpeechEnded, .turnComplete: return ["turn_key"]
        case .transcript: return ["role", "text", "final", "cumulative"]
        case .toolCall: return ["name", "status", "args", "id"]
        case .error: return ["code", "message", "fatal"]
        case .sessionEnded: return ["reason"]
        case .sessionReady, .userSpeechStarted, .userSpeechStopped, .agentInterrupted, .agentAudio: return []
        }
    }
}
