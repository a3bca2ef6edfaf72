extension NormalizedEvent {
    /// The normalized name of an event (docs/dialects.md), for scenario steps that wait for "any normalized event"
    /// (`wait: event` with `event: user.speech_stopped`).
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case sessionStarted = "session.started"
        case sessionReady = "session.ready"
        case agentAudio = "agent.audio"
        case agentSpeechStarted = "agent.speech_started"
        case agentSpeechEnded = "agent.speech_ended"
        case userSpeechStarted = "user.speech_started"
        case userSpeechStopped = "user.speech_stopped"
        case agentInterrupted = "agent.interrupted"
        case turnComplete = "turn.complete"
        case transcript
        case toolCall = "tool.call"
        case error
        case sessionEnded = "session.ended"
    }

    /// The normalized kind of this event; nil for vload's own finer events that have no normalized name
    /// (a speech-to-text result is a `transcript`, a cancelled response an interruption).
    package var kind: Kind? {
        switch self {
        case .sessionStarted: return .sessionStarted
        case .sessionReady: return .sessionReady
        case .agentAudio: return .agentAudio
        case .agentSpeechStarted: return .agentSpeechStarted
        case .agentSpeechEnded: return .agentSpeechEnded
        case .userSpeechStarted: return .userSpeechStarted
        case .userSpeechStopped: return .userSpeechStopped
        case .agentInterrupted: return .agentInterrupted
        case .turnComplete: return .turnComplete
        case .transcript, .speechResult: return .transcript
        case .toolCall: return .toolCall
        case .error: return .error
        case .sessionEnded: return .sessionEnded
        case .responseCancelled, .cancelNotActive, .utteranceEnd, .userTurn, .serverLatency, .mark, .warning, .unknown, .malformed:
            return nil
        }
    }
}
