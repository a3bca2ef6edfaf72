import Foundation

/// capacity.json: what `vload capacity` tried and found. Every step with its SLO figures and
/// verdict, the highest concurrency that met every SLO and the lowest that did not (with the
/// reasons), the search settings, and the simulator's settings when it ran against it.
package struct CapacityReport: Codable, Sendable {
    enum CodingKeys: String, CodingKey {
        case tool, kind, version, scenario
        case scenarioFile = "scenario_file"
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case url, dialect, slos, search, simulator, steps, outcome
        case highestPassing = "highest_passing"
        case firstFailing = "first_failing"
        case answer
        case withinNoise = "within_noise"
        case interrupted
        case interruptedBy = "interrupted_by"
    }

    /// How the search was set up.
    package struct Search: Codable, Sendable, Hashable {
        enum CodingKeys: String, CodingKey {
            case startClients = "start_clients"
            case step
            case maxClients = "max_clients"
            case resolutionClients = "resolution_clients"
            case warmupS = "warmup_s"
            case holdS = "hold_s"
            case rampUpS = "ramp_up_s"
            case maxHoldS = "max_hold_s"
        }

        package var startClients: Int
        /// `x2` (multiply) or `+50` (add).
        package var step: String
        package var maxClients: Int
        package var resolutionClients: Int
        package var warmupS: Double
        package var holdS: Double
        package var rampUpS: Double
        /// How long a step's hold may be extended to for an SLO's samples (`--max-hold`).
        package var maxHoldS: Double?

        package init(search: CapacitySearch, warmupMs: Int, holdMs: Int, rampUpMs: Int, maxHoldMs: Int? = nil) {
            startClients = search.startClients
            step = search.growth.description
            maxClients = search.maxClients
            resolutionClients = search.resolutionClients
            warmupS = Double(warmupMs) / 1_000
            holdS = Double(holdMs) / 1_000
            rampUpS = Double(rampUpMs) / 1_000
            maxHoldS = maxHoldMs.map { Double($0) / 1_000 }
        }
    }

    /// The lowest concurrency that failed its SLOs, and why.
    package struct Failing: Codable, Sendable, Hashable {
        package var clients: Int
        package var reasons: [String]
    }

    package var tool = "vload"
    package var kind = "capacity"
    package var version = VLoadVersion.current
    package var scenario: String
    package var scenarioFile: String
    package var startedAt: String
    package var endedAt: String
    /// The endpoint, secrets redacted.
    package var url: String
    package var dialect: String
    /// The SLO expressions every step was judged on.
    package var slos: [String]
    package var search: Search
    /// The built-in simulator's settings, when the steps ran against it.
    package var simulator: [String: String]?
    /// In the order they ran.
    package var steps: [CapacityStep]
    /// `found`, `first_step_failed`, `generator_unhealthy`, `unreachable` or `interrupted`.
    package var outcome: String
    /// A signal stopped the search (absent otherwise).
    package var interrupted: Bool?
    package var interruptedBy: InterruptSignal?
    /// The highest concurrency that met every SLO (a lower bound only when `outcome` is not `found`).
    package var highestPassing: Int?
    package var firstFailing: Failing?
    /// The final line, as printed.
    package var answer: String
    /// Concurrencies whose verdict was within the noise of an SLO, so each ran twice and
    /// passed only if both attempts did (absent when none): the answer's uncertainty.
    package var withinNoise: [Int]?

    package init(
        scenario: Scenario,
        url: String,
        dialect: String,
        slos: [ThresholdExpression],
        search: Search,
        simulator: [String: String]?,
        steps: [CapacityStep],
        outcome: CapacitySearch.Outcome,
        startedAt: Date,
        endedAt: Date
    ) {
        self.scenario = scenario.name
        scenarioFile = scenario.sourcePath
        self.startedAt = ReportTimestamp.string(startedAt)
        self.endedAt = ReportTimestamp.string(endedAt)
        self.url = url
        self.dialect = dialect
        self.slos = slos.map(\.text)
        self.search = search
        self.simulator = simulator
        self.steps = steps
        self.outcome = outcome.name
        if case .interrupted(let signal, _) = outcome {
            interrupted = true
            interruptedBy = signal
        }
        // A concurrency that ran twice passed only if both attempts did.
        let verdicts = Dictionary(grouping: steps, by: \.clients)
        highestPassing = verdicts.filter { $0.value.allSatisfy { $0.verdict == .passed } }.keys.max()
        firstFailing = verdicts.filter { $0.value.contains { $0.verdict == .failed } }.min { $0.key < $1.key }
            .map { clients, attempts in
                Failing(clients: clients, reasons: attempts.filter { $0.verdict == .failed }.last?.reasons ?? [])
            }
        let repeated = steps.filter { $0.attempt == 2 }.map(\.clients)
        withinNoise = repeated.isEmpty ? nil : repeated
        answer =
            Self.answer(outcome, highestPassing: highestPassing, firstFailing: firstFailing, steps: steps)
            + Self.uncertainty(steps)
    }

    /// `; within noise at 130 clients (passed, then failed: first_audio_from_end_ms.p95 < 750 (95%: 731.0–768.0 ms))`,
    /// or nothing when no step was repeated.
    static func uncertainty(_ steps: [CapacityStep]) -> String {
        let repeated = steps.filter { $0.attempt == 2 }
        guard !repeated.isEmpty else { return "" }
        let parts = repeated.map { second -> String in
            let first = steps.first { $0.clients == second.clients && $0.attempt == 1 }
            let verdicts = [first?.verdict, second.verdict].compactMap { $0?.rawValue }.joined(separator: ", then ")
            return "\(second.clients) clients (\(verdicts): " + (first?.noiseText ?? []).joined(separator: "; ") + ")"
        }
        return "; within noise at " + parts.joined(separator: ", ")
    }

    /// The final line: the answer, or why there is none.
    static func answer(
        _ outcome: CapacitySearch.Outcome,
        highestPassing: Int?,
        firstFailing: Failing?,
        steps: [CapacityStep]
    ) -> String {
        let why = { (step: Failing?) in step.map { " (" + $0.reasons.joined(separator: "; ") + ")" } ?? "" }
        let reasonsAt = { (clients: Int) in
            steps.last { $0.clients == clients }.map { $0.reasons.joined(separator: "; ") } ?? ""
        }
        let sofar = highestPassing.map { "; the highest passing step so far was \($0) clients" } ?? ""
        switch outcome {
        case .found(let passing, let failing?):
            return "capacity: \(passing) concurrent clients met every SLO; \(failing) did not" + why(firstFailing)
        case .found(let passing, nil):
            return "capacity: at least \(passing) concurrent clients: every step up to --max-clients met every SLO"
        case .firstStepFailed(let clients):
            return "capacity: below \(clients) clients: the first step already failed" + why(firstFailing)
        case .generatorUnhealthy(let clients):
            return "capacity: NOT TRUSTWORTHY: at \(clients) clients " + reasonsAt(clients) + sofar
        case .unreachable(let clients):
            return "capacity: no answer: at \(clients) clients " + reasonsAt(clients)
        case .interrupted(let signal, let clients):
            return "capacity: no answer: interrupted by \(signal.rawValue) during the step at \(clients) clients "
                + "(left out; its partial reports are in step-\(clients)/)" + sofar
        }
    }

    /// The report as pretty JSON, keys sorted.
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    package static func decode(from data: Data) throws -> CapacityReport {
        try JSONDecoder().decode(CapacityReport.self, from: data)
    }
}
