/// When virtual clients start and how long they go on (the executor, apart from what a
/// client does).
package struct LoadProfile: Sendable, Hashable {
    /// How sessions are started.
    package enum Model: Sendable, Hashable {
        /// `clients` concurrent clients, started over `rampUpMs`, each running sessions back to
        /// back (`iterations` of them, or until `durationMs`).
        case closed
        /// Concurrent clients that follow a list of stages (targets are clients).
        case stagedClients(StageList)
        /// An open model: sessions start on an arrival schedule whatever the endpoint does; a
        /// start that would exceed `maxInFlight` open sessions is dropped (counted, never delayed).
        case arrivals(ArrivalPlan)

        /// In words, as the run's first line and the summary show it: `50 clients`,
        /// `clients in stages 30.0s:50 (peak 50)`, `poisson arrivals 5/s for 60.0 s, at most 1000 in flight`.
        package func text(clients: Int) -> String {
            switch self {
            case .closed:
                return "\(clients) clients"
            case .stagedClients(let stages):
                return "clients in stages \(stages.description) (peak \(Int(stages.peak.rounded(.up))))"
            case .arrivals(let plan):
                let rates =
                    plan.rates.stages.count == 1 && plan.rates.start == plan.rates.stages[0].target
                    ? "\(ArrivalRate.format(plan.rates.start))/s for \(Double(plan.rates.totalDurationMs) / 1_000) s"
                    : "in stages \(plan.rates.description) from \(ArrivalRate.format(plan.rates.start))/s"
                return "\(plan.process.rawValue) arrivals \(rates), at most \(plan.maxInFlight) in flight"
            }
        }
    }

    package var model: Model = .closed
    /// Closed model: concurrent clients. Staged: the peak target. Open: the in-flight limit.
    package var clients: Int
    /// Client i starts at `rampUpMs · i / clients` after the run starts (closed model).
    package var rampUpMs: Int
    /// Sessions per client, when the run is bounded by count (closed model).
    package var iterations: Int
    /// When set, clients start new sessions until this much time has passed (and `iterations`
    /// is ignored); a session under way finishes within its step timeouts.
    package var durationMs: Int?
    /// This process's share of the load (`--segment i/n`); the whole load by default.
    package var segment = LoadSegment.whole
    /// A time-bounded run (`durationMs` set): sessions still open this long after its end are
    /// wound down (outcome `interrupted`), so the run ends by its own limit (`--drain`).
    package var drainMs = LoadProfile.defaultDrainMs

    package static let defaultDrainMs = 30_000

    /// Closed and staged models: how long a client waits before its next session after sessions
    /// that failed before they were ready (`--retry-backoff`).
    package var retryBackoff = RetryBackoff.standard

    package init(clients: Int, rampUpMs: Int = 0, iterations: Int = 1, durationMs: Int? = nil) {
        self.clients = clients
        self.rampUpMs = rampUpMs
        self.iterations = iterations
        self.durationMs = durationMs
    }

    /// A staged closed model.
    package static func staged(_ stages: StageList) -> LoadProfile {
        var profile = LoadProfile(clients: Int(stages.peak.rounded(.up)), durationMs: stages.totalDurationMs)
        profile.model = .stagedClients(stages)
        return profile
    }

    /// An open model.
    package static func arrivals(_ plan: ArrivalPlan) -> LoadProfile {
        var profile = LoadProfile(clients: plan.maxInFlight, durationMs: plan.rates.totalDurationMs)
        profile.model = .arrivals(plan)
        return profile
    }

    package func startOffsetMs(ofClient index: Int) -> Int {
        clients > 0 ? rampUpMs * index / clients : 0
    }

    /// The closed-model clients this process runs (all of them unless segmented).
    package var ownClients: [Int] { segment.share(of: clients) }
}

/// An open model's schedule: the rate (constant or staged), how starts are spaced, and the
/// most sessions allowed open at once.
package struct ArrivalPlan: Sendable, Hashable {
    package var rates: StageList
    package var process: ArrivalProcess
    /// The whole load's limit; a segment gets its part of it.
    package var maxInFlight: Int
    package var seed: UInt64

    package init(rates: StageList, process: ArrivalProcess = .poisson, maxInFlight: Int, seed: UInt64 = 1) {
        self.rates = rates
        self.process = process
        self.maxInFlight = maxInFlight
        self.seed = seed
    }
}
