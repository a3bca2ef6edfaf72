import Testing
import VoiceLoad

/// The capacity search as a state machine, driven by a verdict function instead of runs.
@Suite("Capacity search")
struct CapacitySearchTests {
    /// Runs the search to its end against `verdict`; the concurrencies tried and the outcome.
    private func drive(
        _ search: CapacitySearch,
        _ verdict: (Int) -> CapacitySearch.Verdict
    ) -> (tried: [Int], outcome: CapacitySearch.Outcome) {
        var search = search
        var tried: [Int] = []
        while case .run(let clients) = search.next {
            tried.append(clients)
            search.record(clients: clients, verdict: verdict(clients))
            if tried.count > 100 { break }
        }
        guard case .finished(let outcome) = search.next else {
            Issue.record("no outcome")
            return (tried, .firstStepFailed(clients: 0))
        }
        return (tried, outcome)
    }

    private func search(
        start: Int = 10,
        growth: CapacityGrowth = .multiply(by: 2),
        max: Int = 1_000,
        resolution: Int = 5
    ) throws -> CapacitySearch {
        try CapacitySearch(startClients: start, growth: growth, maxClients: max, resolutionClients: resolution)
    }

    private func knee(_ capacity: Int) -> (Int) -> CapacitySearch.Verdict {
        { $0 <= capacity ? .passed : .failed }
    }

    @Test("doubles until the first failure, then bisects to within the resolution")
    func doublingThenBisect() throws {
        let (tried, outcome) = drive(try search(), knee(128))
        #expect(tried == [10, 20, 40, 80, 160, 120, 140, 130, 125])
        #expect(outcome == .found(highestPassing: 125, lowestFailing: 130))
        #expect(outcome.exitCode == 0 && outcome.name == "found")
    }

    @Test("resolution 1 finds the knee exactly")
    func exact() throws {
        let (tried, outcome) = drive(try search(resolution: 1), knee(128))
        #expect(tried == [10, 20, 40, 80, 160, 120, 140, 130, 125, 127, 128, 129])
        #expect(outcome == .found(highestPassing: 128, lowestFailing: 129))
    }

    @Test("for every knee from the start up, resolution 1 answers the knee itself")
    func everyKnee() throws {
        for capacity in 10...400 {
            let (tried, outcome) = drive(try search(resolution: 1), knee(capacity))
            #expect(outcome == .found(highestPassing: capacity, lowestFailing: capacity + 1), "knee \(capacity)")
            #expect(Set(tried).count == tried.count, "knee \(capacity): a concurrency ran twice")
        }
    }

    @Test("additive growth")
    func additive() throws {
        let (tried, outcome) = drive(try search(growth: .add(clients: 50), resolution: 10), knee(128))
        #expect(tried == [10, 60, 110, 160, 135, 122, 128])
        #expect(outcome == .found(highestPassing: 128, lowestFailing: 135))
    }

    @Test("every step passing up to --max-clients: the maximum, no failing concurrency")
    func neverFails() throws {
        let (tried, outcome) = drive(try search(max: 50), { _ in .passed })
        #expect(tried == [10, 20, 40, 50])
        #expect(outcome == .found(highestPassing: 50, lowestFailing: nil))
    }

    @Test("the first step failing ends the search: exit 1")
    func firstStepFails() throws {
        let (tried, outcome) = drive(try search(), { _ in .failed })
        #expect(tried == [10])
        #expect(outcome == .firstStepFailed(clients: 10) && outcome.exitCode == 1)
    }

    @Test("an unhealthy generator or an unreachable endpoint ends the search at once")
    func stops() throws {
        let unhealthy = drive(try search(), { $0 >= 40 ? .generatorUnhealthy : .passed })
        #expect(unhealthy.tried == [10, 20, 40])
        #expect(unhealthy.outcome == .generatorUnhealthy(clients: 40) && unhealthy.outcome.exitCode == 3)
        let unreachable = drive(try search(), { _ in .unreachable })
        #expect(unreachable.outcome == .unreachable(clients: 10) && unreachable.outcome.exitCode == 4)
        var stopped = try search()
        stopped.record(clients: 10, verdict: .generatorUnhealthy)
        stopped.record(clients: 10, verdict: .passed)
        #expect(stopped.next == .finished(.generatorUnhealthy(clients: 10)))
    }

    @Test("settings that cannot work are bad input")
    func badSettings() {
        #expect(throws: InputError.self) { try search(start: 0) }
        #expect(throws: InputError.self) { try search(start: 20, max: 10) }
        #expect(throws: InputError.self) { try search(resolution: 0) }
    }

    @Test("growth: x2, 2x, *1.5, +50, 50; always up by at least one")
    func growth() throws {
        #expect(try CapacityGrowth(parsing: "x2") == .multiply(by: 2))
        #expect(try CapacityGrowth(parsing: "2x") == .multiply(by: 2))
        #expect(try CapacityGrowth(parsing: "*1.5") == .multiply(by: 1.5))
        #expect(try CapacityGrowth(parsing: "+50") == .add(clients: 50))
        #expect(try CapacityGrowth(parsing: "50") == .add(clients: 50))
        for bad in ["x1", "x", "0", "-5", "abc", "x0.5"] {
            #expect(throws: InputError.self, "\(bad)") { try CapacityGrowth(parsing: bad) }
        }
        #expect(CapacityGrowth.multiply(by: 1.1).next(after: 1) == 2)
        #expect(CapacityGrowth.multiply(by: 1.5).next(after: 10) == 15)
        #expect(CapacityGrowth.multiply(by: 2).description == "x2" && CapacityGrowth.add(clients: 50).description == "+50")
    }
}
