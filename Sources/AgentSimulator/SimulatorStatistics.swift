/// What the simulator did, summed over sessions.
public struct SimulatorStatistics: Sendable, Hashable {
    public var sessions = 0
    public var userTurns = 0
    public var replies = 0
    public var interruptions = 0
    /// Tool calls the agent made.
    public var toolCalls = 0
    /// Tool results the clients sent.
    public var toolResults = 0
    /// Client-side tool calls whose result did not come in time (the agent answered anyway).
    public var toolResultTimeouts = 0
    /// Faults performed, by `InjectedFault.countKey` (`refuse_503`, `close_1011`, `stall`, …).
    public var faultsInjected: [String: Int] = [:]
    /// Keep-alive messages the clients sent (Deepgram `KeepAlive`).
    public var keepAlives = 0
    /// The keys the callers pressed (Twilio `dtmf`), session after session in the order the
    /// sessions ended.
    public var dtmfDigits = ""

    public init() {}

    mutating func add(_ other: SimulatorStatistics) {
        sessions += other.sessions
        userTurns += other.userTurns
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
