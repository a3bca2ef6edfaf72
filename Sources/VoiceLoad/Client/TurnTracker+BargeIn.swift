import WSCore

/// Barge-ins (docs/metrics.md): the caller talks over the agent, or
/// sends the dialect's interrupt command, and the server acknowledges, stops and cancels.
extension TurnTracker {
    /// What told the client the agent was interrupted.
    package enum BargeInSignal: Sendable, Hashable {
        /// `agent.interrupted`: an explicit acknowledgement or flush (`interrupted`, `clear`).
        case interrupted
        /// `user.speech_started`: counts only while the agent is audible (its turn is open or its
        /// audio still playing), since it fires on every utterance.
        case userSpeechStarted
        /// The interrupted response was cancelled (OpenAI `response.done` status `cancelled`).
        case responseCancelled
    }

    /// For an interrupt command: the moment its row can be written — the acknowledgement plus
    /// `quietMs` with no more audio of the interrupted turn, or the deadline with none.
    package var commandInterruptionSettlesAt: MonotonicInstant? {
        guard let bargeIn, bargeIn.utteranceIndex == nil else { return nil }
        guard bargeIn.isAcknowledged, let ackAt = bargeIn.ackAt else { return bargeIn.deadline }
        let lastAudio = max(ackAt, tail?.lastAudioAt ?? ackAt)
        return lastAudio.advanced(byMilliseconds: configuration.quietMs)
    }
}
