/// A server's own reading of the user's turn, apart from voice activity (Deepgram Flux
/// `TurnInfo` events, docs/dialects.md): the end of the turn, an early guess at it, and the
/// withdrawal of that guess. Timed from the end of the caller's speech (docs/metrics.md).
package enum UserTurnSignal: String, Sendable, Hashable, CaseIterable {
    /// The server is fairly sure the user has finished (Flux `EagerEndOfTurn`): a voice agent
    /// may start preparing its answer (`eager_end_of_turn_ms`).
    case eagerEndOfTurn = "eager_end_of_turn"
    /// The user went on after an eager end of turn (Flux `TurnResumed`): a speculative answer
    /// is thrown away (`turns_resumed`).
    case turnResumed = "turn_resumed"
    /// The user's turn is over (Flux `EndOfTurn`): for speech-to-text, the answer
    /// (`end_of_turn_ms`).
    case endOfTurn = "end_of_turn"
}
