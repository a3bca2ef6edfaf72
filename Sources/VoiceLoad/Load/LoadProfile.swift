/// When virtual clients start and how long they go on (the executor, apart from what a
/// client does): a closed model of `clients` concurrent sessions.
public struct LoadProfile: Sendable, Hashable {
    public var clients: Int
    /// Client i starts at `rampUpMs · i / clients` after the run starts.
    public var rampUpMs: Int
    /// Sessions per client, when the run is bounded by count.
    public var iterations: Int
    /// When set, clients start new sessions until this much time has passed (and `iterations`
    /// is ignored); a session under way finishes within its step timeouts.
    public var durationMs: Int?

    public init(clients: Int, rampUpMs: Int = 0, iterations: Int = 1, durationMs: Int? = nil) {
        self.clients = clients
        self.rampUpMs = rampUpMs
        self.iterations = iterations
        self.durationMs = durationMs
    }

    public func startOffsetMs(ofClient index: Int) -> Int {
        clients > 0 ? rampUpMs * index / clients : 0
    }
}
