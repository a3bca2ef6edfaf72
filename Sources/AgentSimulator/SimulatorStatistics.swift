/// What the simulator did, summed over sessions.
package struct SimulatorStatistics: Sendable, Hashable {
    package var sessions = 0
    package var userTurns = 0
    /// Turns the user went on with after an eager end of turn (Flux `TurnResumed`).
    package var turnsResumed = 0
    package var replies = 0
    package var interruptions = 0
    /// Tool calls the agent made.
    package var toolCalls = 0
    /// Tool results the clients sent.
    package var toolResults = 0
    /// Client-side tool calls whose result did not come in time (the agent answered anyway).
    package var toolResultTimeouts = 0
    /// Faults performed, by `InjectedFault.countKey` (`refuse_503`, `close_1011`, `stall`, …).
    package var faultsInjected: [String: Int] = [:]
    /// Keep-alive messages the clients sent (Deepgram `KeepAlive`).
    package var keepAlives = 0
    /// The keys the callers pressed (Twilio `dtmf`), session after session in the order the
    /// sessions ended.
    package var dtmfDigits = ""

    package init() {}

    mutating func add(_ other: SimulatorStatistics) {
        sessions += other.sessions
        userTurns += other.userTurns
        turnsResumed += other.turnsResumed
        replies += other.replies
        interruptions += other.interruptions
        toolCalls += other.toolCalls
        toolResults += other.toolResults
        toolResultTimeouts += other.toolResultTimeouts
        faultsInjected.merge(other.faultsInjected, uniquingKeysWith: +)
        keepAlives += other.keepAlives
        dtmfDigits += other.dtmfDigits
    }
}
