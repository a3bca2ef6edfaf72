import VoiceLoad
import WSCore

/// Barge-in: the user talks over the agent (or the client commands an interrupt). The agent
/// goes on for `bargeInReactionMs`, then stops its audio and sends every interruption signal
/// at once: the user's speech start (when it heard speech), `interrupted` and the cancelled
/// response. With `bargeIn` off it ignores both.
extension SimulatorSession {
    struct PendingBargeIn: Sendable, Hashable {
        /// Where in the user's stream the speech that barged in started; nil for a commanded
        /// interrupt.
        var userSpeechAudioMs: Int?
    }

    /// Something to react to: speech heard at `userSpeechAudioMs`, or (nil) the client's
    /// interrupt command. Speech or a command while a reaction is pending joins it; a command
    /// with nothing to interrupt does nothing.
    mutating func requestInterruption(userSpeechAudioMs: Int?, at now: MonotonicInstant) -> [Action] {
        guard configuration.bargeIn else { return [] }
        if var pending = pendingBargeIn {
            pending.userSpeechAudioMs = pending.userSpeechAudioMs ?? userSpeechAudioMs
            pendingBargeIn = pending
            return []
        }
        guard stream != nil || reply != nil else { return [] }
        pendingBargeIn = PendingBargeIn(userSpeechAudioMs: userSpeechAudioMs)
        guard configuration.bargeInReactionMs > 0 else { return deliverBargeIn(at: now) }
        return [.schedule(.bargeIn, at: now.advanced(byMilliseconds: Int64(configuration.bargeInReactionMs)))]
    }

    /// The agent reacts: the user's speech start, then the interruption.
    mutating func deliverBargeIn(at now: MonotonicInstant) -> [Action] {
        guard let pending = pendingBargeIn else { return [] }
        pendingBargeIn = nil
        let heard: [Action] = pending.userSpeechAudioMs.map { [.send(.userSpeechStarted(audioMs: $0))] } ?? []
        return heard + interrupt(at: now)
    }

    /// Stops the turn being spoken (`interrupted`, its response cancelled) and drops the reply
    /// on its way; when the agent is not speaking, only the latter.
    private mutating func interrupt(at now: MonotonicInstant) -> [Action] {
        guard let interrupted = stream else { return cancelReply() }
        statistics.interruptions += 1
        let actions = stopSpeaking(at: now) + cancelReply()
        return actions + [.send(.interrupted), .send(.responseCancelled(turnKey: interrupted.turnKey))]
    }
}
