/// The load as the command line asks for it (`--clients`, `--arrival-rate`, `--stages`, …),
/// checked and resolved, with the scenario's `stages:`, into a `LoadProfile`.
package struct LoadOptions: Sendable, Hashable {
    package var clients: Int?
    package var rampUp: String
    package var iterations: Int?
    package var duration: String?
    package var arrivalRate: String?
    package var arrivalProcess: String?
    package var maxInFlight: Int?
    package var stages: String?
    package var segment: String?
    /// How long sessions still open at the end of a time-bounded run get (`--drain`).
    package var drain: String?
    /// Closed and staged models: the wait after sessions that failed before ready (`--retry-backoff`).
    package var retryBackoff: String?

    /// The in-flight limit of an open model when none is given.
    package static let defaultMaxInFlight = 1_000

    package init(
        clients: Int? = nil,
        rampUp: String = "0s",
        iterations: Int? = nil,
        duration: String? = nil,
        arrivalRate: String? = nil,
        arrivalProcess: String? = nil,
        maxInFlight: Int? = nil,
        stages: String? = nil,
        segment: String? = nil,
        drain: String? = nil,
        retryBackoff: String? = nil
    ) {
        self.clients = clients
        self.rampUp = rampUp
        self.iterations = iterations
        self.duration = duration
        self.arrivalRate = arrivalRate
        self.arrivalProcess = arrivalProcess
        self.maxInFlight = maxInFlight
        self.stages = stages
        self.segment = segment
        self.drain = drain
        self.retryBackoff = retryBackoff
    }

    /// The profile to run; a one-line error for options that do not go together.
    package func profile(scenario: Scenario) throws(InputError) -> LoadProfile {
        let rampUpMs = try DurationText.milliseconds(rampUp, option: "--ramp-up")
        let durationMs = try duration.map { text throws(InputError) in try DurationText.milliseconds(text, option: "--duration") }
        if let durationMs, durationMs <= 0 { throw InputError("--duration must be longer than 0") }
        let startRate = try arrivalRate.map { text throws(InputError) in try ArrivalRate.parse(text) }
        var stageList = try stages.map { text throws(InputError) in try StageList.parse(text) }
        if stageList == nil, clients == nil, startRate == nil { stageList = scenario.stages }
        var profile: LoadProfile
        if startRate != nil || stageList?.kind == .arrivalRate {
            profile = try openProfile(
                startRate: startRate,
                stageList: stageList,
                durationMs: durationMs,
                rampUpMs: rampUpMs,
                seed: scenario.seed
            )
        } else if let stageList {
            try reject(
                [
                    "--clients": clients != nil, "--ramp-up": rampUpMs > 0, "--iterations": iterations != nil,
                    "--duration": durationMs != nil,
                ],
                with: "client --stages (the stages set the clients and the length)"
            )
            profile = .staged(stageList)
        } else {
            if iterations != nil, durationMs != nil { throw InputError("--iterations and --duration cannot be used together") }
            profile = LoadProfile(clients: clients ?? 1, rampUpMs: rampUpMs, iterations: iterations ?? 1, durationMs: durationMs)
        }
        if case .arrivals = profile.model {
        } else {
            try reject(
                ["--arrivals": arrivalProcess != nil, "--max-in-flight": maxInFlight != nil],
                with: "a closed model (they need --arrival-rate or rate --stages)"
            )
        }
        if let segment {
            profile.segment = try LoadSegment.parse(segment)
            try checkSegment(profile)
        }
        if let drain {
            guard profile.durationMs != nil else {
                throw InputError(
                    "--drain needs a time-bounded run (--duration, --stages or --arrival-rate): a run of --iterations ends with its sessions"
                )
            }
            profile.drainMs = try DurationText.milliseconds(drain, option: "--drain")
        }
        if let retryBackoff {
            if case .arrivals = profile.model {
                throw InputError(
                    "--retry-backoff is for a closed model: an open model's sessions start on their arrival schedule, never retried"
                )
            }
            profile.retryBackoff = try RetryBackoff(parsing: retryBackoff)
        }
        return profile
    }

    private func openProfile(
        startRate: Double?,
        stageList: StageList?,
        durationMs: Int?,
        rampUpMs: Int,
        seed: UInt64
    ) throws(InputError) -> LoadProfile {
        try reject(
            ["--clients": clients != nil, "--ramp-up": rampUpMs > 0, "--iterations": iterations != nil],
            with: "an arrival rate (an open model starts sessions on its own schedule)"
        )
        let rates: StageList
        if var stageList {
            if stageList.kind == .clients {
                throw InputError("--arrival-rate with client --stages: give rate stages like '1m:10/s' or no --arrival-rate")
            }
            if durationMs != nil { throw InputError("--duration cannot be used with rate --stages (the stages set the length)") }
            stageList.start = startRate ?? 0
            rates = stageList
        } else if let startRate {
            guard let durationMs else {
                throw InputError("--arrival-rate needs --duration (how long to keep starting sessions), or rate --stages")
            }
            rates = .constantRate(startRate, durationMs: durationMs)
        } else {
            throw InputError("an open model needs --arrival-rate or rate --stages")
        }
        let process: ArrivalProcess
        if let arrivalProcess {
            guard let chosen = ArrivalProcess(rawValue: arrivalProcess) else {
                throw InputError("invalid --arrivals '\(arrivalProcess)': use poisson or uniform")
            }
            process = chosen
        } else {
            process = .poisson
        }
        return .arrivals(ArrivalPlan(rates: rates, process: process, maxInFlight: maxInFlight ?? Self.defaultMaxInFlight, seed: seed))
    }

    private func checkSegment(_ profile: LoadProfile) throws(InputError) {
        let segment = profile.segment
        switch profile.model {
        case .closed:
            if profile.clients < segment.count {
                throw InputError("--segment \(segment): \(profile.clients) clients cannot be split over \(segment.count) processes")
            }
        case .stagedClients(let stages):
            if Int(stages.peak.rounded(.up)) < segment.count {
                throw InputError(
                    "--segment \(segment): a peak of \(Int(stages.peak)) clients cannot be split over \(segment.count) processes"
                )
            }
        case .arrivals(let plan):
            if plan.maxInFlight < segment.count {
                throw InputError(
                    "--segment \(segment): --max-in-flight \(plan.maxInFlight) cannot be split over \(segment.count) processes"
                )
            }
        }
    }

    private func reject(_ given: [String: Bool], with what: String) throws(InputError) {
        if let option = given.filter(\.value).keys.sorted().first {
            throw InputError("\(option) cannot be used with \(what)")
        }
    }

    /// One line for the start of a run: `50 clients, 1 session(s) each`, `poisson arrivals 5/s for 60.0 s, …`.
    package static func describe(_ load: LoadProfile) -> String {
        var text = load.model.text(clients: load.clients)
        if load.model == .closed {
            text +=
                ", " + (load.durationMs.map { "for \(Double($0) / 1_000) s" } ?? "\(load.iterations) session(s) each")
                + (load.rampUpMs > 0 ? ", ramp-up \(Double(load.rampUpMs) / 1_000) s" : "")
        }
        if !load.segment.isWhole { text += ", segment \(load.segment) (this process's share)" }
        return text
    }
}
