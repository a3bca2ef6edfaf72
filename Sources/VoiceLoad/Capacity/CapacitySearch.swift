/// The search of `vload capacity` as a value-type state machine: given the verdicts of the
/// steps so far, the concurrency to try next, or the outcome. It runs nothing itself.
///
/// From `startClients` the concurrency grows (`growth`, capped at `maxClients`) while steps
/// pass; past the knee (the first failure) it bisects between the highest passing and the
/// lowest failing concurrency until they are at most `resolutionClients` apart. A step whose
/// generator was unhealthy, or that reached no endpoint, ends the search at once.
///
/// A step whose verdict was within the noise of an SLO (the 95% bootstrap interval of its
/// percentile holds the bound) runs once more at the same concurrency, and the concurrency
/// passes only if both attempts passed. Conservative on purpose: a capacity is a concurrency to
/// promise, and one that failed one of two honest attempts cannot be promised; judging the
/// two runs' pooled samples instead would need the runs merged and would still leave a
/// coin flip at the bound. The concurrencies so repeated are `withinNoise`.
package struct CapacitySearch: Sendable, Hashable {
    /// What one step showed.
    package enum Verdict: String, Sendable, Hashable, Codable {
        /// Every SLO held.
        case passed
        /// An SLO failed or could not be judged.
        case failed
        /// The load generator itself was saturated: the step says nothing about the endpoint.
        case generatorUnhealthy = "generator_unhealthy"
        /// No session reached the endpoint.
        case unreachable
    }

    /// How the search ended.
    package enum Outcome: Sendable, Hashable {
        /// The highest concurrency that met every SLO, and the lowest that did not (nil when
        /// every step up to `maxClients` passed).
        case found(highestPassing: Int, lowestFailing: Int?)
        /// The first step (at `startClients`) already failed.
        case firstStepFailed(clients: Int)
        /// The generator was saturated at `clients`: no answer to trust.
        case generatorUnhealthy(clients: Int)
        /// No session reached the endpoint at `clients`.
        case unreachable(clients: Int)
        /// A signal stopped the search; the step under way (at `clients`) was wound down and
        /// left out.
        case interrupted(by: InterruptSignal, clients: Int)

        /// `found`, `first_step_failed`, `generator_unhealthy`, `unreachable`.
        package var name: String {
            switch self {
            case .found: return "found"
            case .firstStepFailed: return "first_step_failed"
            case .generatorUnhealthy: return "generator_unhealthy"
            case .unreachable: return "unreachable"
            case .interrupted: return "interrupted"
            }
        }

        /// 0 found, 1 the first step failed, 3 generator unhealthy, 4 unreachable, 130/143 interrupted.
        package var exitCode: Int32 {
            switch self {
            case .found: return 0
            case .firstStepFailed: return 1
            case .generatorUnhealthy: return 3
            case .unreachable: return 4
            case .interrupted(let signal, _): return signal.exitCode
            }
        }
    }

    /// What to do next.
    package enum Next: Sendable, Hashable {
        case run(clients: Int)
        case finished(Outcome)
    }

    package let startClients: Int
    package let growth: CapacityGrowth
    package let maxClients: Int
    package let resolutionClients: Int
    /// The highest concurrency that passed so far.
    package private(set) var highestPassing: Int?
    /// The lowest concurrency that failed so far.
    package private(set) var lowestFailing: Int?
    /// Concurrencies whose first verdict was within the noise of an SLO (each ran twice), in order.
    package private(set) var withinNoise: [Int] = []
    /// The first attempt at a concurrency being repeated, until the second one is recorded.
    private var repeating: Attempt?
    private var stopped: Outcome?

    private struct Attempt: Sendable, Hashable {
        var clients: Int
        var verdict: Verdict
    }

    /// Checks the settings: 1 ≤ start ≤ max, resolution ≥ 1.
    package init(startClients: Int, growth: CapacityGrowth, maxClients: Int, resolutionClients: Int) throws(InputError) {
        guard startClients >= 1 else { throw InputError("--start must be at least 1 (got \(startClients))") }
        guard maxClients >= startClients else {
            throw InputError("--max-clients (\(maxClients)) must be at least --start (\(startClients))")
        }
        guard resolutionClients >= 1 else { throw InputError("--resolution must be at least 1 (got \(resolutionClients))") }
        self.startClients = startClients
        self.growth = growth
        self.maxClients = maxClients
        self.resolutionClients = resolutionClients
    }

    /// The concurrency of the next step, or how the search ended.
    package var next: Next {
        if let stopped { return .finished(stopped) }
        if let repeating { return .run(clients: repeating.clients) }
        switch (highestPassing, lowestFailing) {
        case (nil, nil):
            return .run(clients: startClients)
        case (let passing?, nil):
            guard passing < maxClients else { return .finished(.found(highestPassing: passing, lowestFailing: nil)) }
            return .run(clients: min(growth.next(after: passing), maxClients))
        case (nil, let failing?):
            return .finished(.firstStepFailed(clients: failing))
        case (let passing?, let failing?):
            guard failing - passing > resolutionClients else {
                return .finished(.found(highestPassing: passing, lowestFailing: failing))
            }
            return .run(clients: passing + (failing - passing) / 2)
        }
    }

    /// 2 when the next step repeats one whose verdict was within noise, else 1.
    package var nextAttempt: Int { repeating == nil ? 1 : 2 }

    /// Takes the verdict of a step at `clients`; `withinNoise` when a passing or failing
    /// verdict was within the noise of an SLO (then the step runs once more, unless it already
    /// is the second attempt).
    package mutating func record(clients: Int, verdict: Verdict, withinNoise: Bool = false) {
        guard stopped == nil else { return }
        var verdict = verdict
        if let first = repeating, first.clients == clients {
            repeating = nil
            if verdict == .passed, first.verdict != .passed { verdict = .failed }
        } else if withinNoise, verdict == .passed || verdict == .failed {
            repeating = Attempt(clients: clients, verdict: verdict)
            self.withinNoise.append(clients)
            return
        }
        switch verdict {
        case .passed:
            highestPassing = max(highestPassing ?? clients, clients)
        case .failed:
            lowestFailing = min(lowestFailing ?? clients, clients)
        case .generatorUnhealthy:
            stopped = .generatorUnhealthy(clients: clients)
        case .unreachable:
            stopped = .unreachable(clients: clients)
        }
    }
}
