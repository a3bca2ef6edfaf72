import Testing
import VoiceLoad

/// The capacity search repeating a step whose verdict was within the noise of an SLO.
@Suite("Capacity search: repeats within noise")
struct CapacitySearchRepeatTests {
    /// One step's result: its verdict and whether it was within noise.
    typealias Result = (verdict: CapacitySearch.Verdict, withinNoise: Bool)

    /// Runs the search to its end; `results(clients, attempt)` gives each step's result.
    private func drive(
        _ results: (Int, Int) -> Result
    ) throws -> (tried: [String], outcome: CapacitySearch.Outcome?, search: CapacitySearch) {
        var search = try CapacitySearch(startClients: 10, growth: .multiply(by: 2), maxClients: 1_000, resolutionClients: 5)
        var tried: [String] = []
        while case .run(let clients) = search.next, tried.count < 100 {
            let attempt = search.nextAttempt
            tried.append(attempt == 1 ? "\(clients)" : "\(clients)#\(attempt)")
            let result = results(clients, attempt)
            search.record(clients: clients, verdict: result.verdict, withinNoise: result.withinNoise)
        }
        guard case .finished(let outcome) = search.next else { return (tried, nil, search) }
        return (tried, outcome, search)
    }

    @Test("a step within noise runs once more at the same concurrency; passing both, the search goes on")
    func passTwice() throws {
        let (tried, outcome, search) = try drive { clients, _ in (clients <= 128 ? .passed : .failed, clients == 120) }
        #expect(tried == ["10", "20", "40", "80", "160", "120", "120#2", "140", "130", "125"])
        #expect(outcome == .found(highestPassing: 125, lowestFailing: 130))
        #expect(search.withinNoise == [120])
    }

    @Test("passed, then failed: the concurrency fails (a pass needs both attempts)")
    func passThenFail() throws {
        let (tried, outcome, _) = try drive { clients, attempt in
            clients == 120 ? (attempt == 1 ? .passed : .failed, true) : (clients <= 128 ? .passed : .failed, false)
        }
        #expect(tried == ["10", "20", "40", "80", "160", "120", "120#2", "100", "110", "115"])
        #expect(outcome == .found(highestPassing: 115, lowestFailing: 120))
    }

    @Test("failed, then passed: still failed")
    func failThenPass() throws {
        let (tried, outcome, _) = try drive { clients, attempt in
            clients == 80 ? (attempt == 1 ? .failed : .passed, true) : (clients <= 128 ? .passed : .failed, false)
        }
        #expect(tried == ["10", "20", "40", "80", "80#2", "60", "70", "75"])
        #expect(outcome == .found(highestPassing: 75, lowestFailing: 80))
    }

    @Test("the second attempt is never repeated, even within noise again")
    func onceOnly() throws {
        let (tried, outcome, search) = try drive { clients, _ in (clients <= 10 ? .passed : .failed, clients == 20) }
        #expect(tried == ["10", "20", "20#2", "15"])
        #expect(outcome == .found(highestPassing: 10, lowestFailing: 15))
        #expect(search.withinNoise == [20])
    }

    @Test("a first step within noise and failing either attempt: the first step failed")
    func firstStep() throws {
        let (tried, outcome, _) = try drive { _, attempt in (attempt == 1 ? .passed : .failed, true) }
        #expect(tried == ["10", "10#2"])
        #expect(outcome == .firstStepFailed(clients: 10))
    }

    @Test("a saturated generator on the repeat ends the search; unhealthy or unreachable steps are never repeated")
    func untrustworthy() throws {
        let saturated = try drive { clients, attempt in
            clients == 20 ? (attempt == 1 ? .passed : .generatorUnhealthy, true) : (.passed, false)
        }
        #expect(saturated.tried == ["10", "20", "20#2"])
        #expect(saturated.outcome == .generatorUnhealthy(clients: 20))
        let unreachable = try drive { _, _ in (.unreachable, true) }
        #expect(unreachable.tried == ["10"] && unreachable.outcome == .unreachable(clients: 10))
        #expect(unreachable.search.withinNoise.isEmpty)
    }
}
