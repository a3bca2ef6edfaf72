import Testing

@testable import VoiceLoad

@Suite("Load options")
struct LoadOptionsTests {
    private let scenario = Scenario(name: "s", sourcePath: "s.yaml", steps: [])

    @Test func clientsMakeAClosedModel() throws {
        let profile = try LoadOptions(clients: 50, rampUp: "10s", iterations: 2).profile(scenario: scenario)
        #expect(profile.model == .closed)
        #expect(profile.clients == 50)
        #expect(profile.rampUpMs == 10_000)
        #expect(profile.iterations == 2)
    }

    @Test func anArrivalRateMakesAnOpenModel() throws {
        let profile = try LoadOptions(duration: "1m", arrivalRate: "5/s", maxInFlight: 40).profile(scenario: scenario)
        guard case .arrivals(let plan) = profile.model else {
            Issue.record("not open")
            return
        }
        #expect(plan.rates == .constantRate(5, durationMs: 60_000))
        #expect(plan.process == .poisson)
        #expect(plan.maxInFlight == 40)
        #expect(profile.durationMs == 60_000)
    }

    @Test func rateStagesStartFromTheArrivalRate() throws {
        let profile = try LoadOptions(arrivalRate: "2/s", stages: "30s:10/s").profile(scenario: scenario)
        guard case .arrivals(let plan) = profile.model else {
            Issue.record("not open")
            return
        }
        #expect(plan.rates.start == 2)
        #expect(plan.maxInFlight == LoadOptions.defaultMaxInFlight)
    }

    @Test func theScenarioStagesApplyUnlessTheCommandLineGivesALoad() throws {
        var staged = scenario
        staged.stages = try StageList.parse("10s:20,10s:0")
        let profile = try LoadOptions().profile(scenario: staged)
        #expect(profile.model == .stagedClients(try StageList.parse("10s:20,10s:0")))
        #expect(profile.clients == 20)
        #expect(try LoadOptions(clients: 3).profile(scenario: staged).model == .closed)
    }

    @Test func segmentsAreParsedAndSplitTheLoad() throws {
        let profile = try LoadOptions(clients: 10, segment: "2/4").profile(scenario: scenario)
        #expect(profile.segment == LoadSegment(index: 1, count: 4))
        #expect(profile.ownClients == [1, 5, 9])
        let all = (0..<4).flatMap { LoadSegment(index: $0, count: 4).share(of: 10) }
        #expect(all.sorted() == Array(0..<10))
        #expect((0..<3).map { LoadSegment(index: $0, count: 3).part(of: 10) } == [4, 3, 3])
    }

    @Test(arguments: [
        (LoadOptions(arrivalRate: "5/s"), "--arrival-rate needs --duration"),
        (LoadOptions(clients: 5, duration: "10s", arrivalRate: "5/s"), "--clients cannot be used with an arrival rate"),
        (LoadOptions(clients: 5, maxInFlight: 3), "--max-in-flight cannot be used with a closed model"),
        (LoadOptions(clients: 5, arrivalProcess: "uniform"), "--arrivals cannot be used with a closed model"),
        (LoadOptions(duration: "10s", arrivalRate: "5/s", arrivalProcess: "bursty"), "invalid --arrivals 'bursty'"),
        (LoadOptions(clients: 5, stages: "10s:5"), "--clients cannot be used with client --stages"),
        (LoadOptions(duration: "10s", stages: "10s:5/s"), "--duration cannot be used with rate --stages"),
        (LoadOptions(arrivalRate: "0/s"), "invalid --arrival-rate '0/s'"),
        (LoadOptions(clients: 3, segment: "1/4"), "3 clients cannot be split over 4 processes"),
        (LoadOptions(clients: 3, segment: "5/4"), "invalid --segment '5/4'"),
        (LoadOptions(clients: 3, iterations: 2, duration: "5s"), "--iterations and --duration cannot be used together"),
    ])
    func rejectsOptionsThatDoNotGoTogether(options: LoadOptions, message: String) {
        #expect {
            try options.profile(scenario: scenario)
        } throws: { error in
            (error as? InputError)?.message.contains(message) == true
        }
    }

    @Test("--drain sets how long a time-bounded run's open sessions may go on; 30 s by default")
    func drain() throws {
        #expect(try LoadOptions(clients: 2, duration: "1m").profile(scenario: scenario).drainMs == 30_000)
        #expect(try LoadOptions(clients: 2, duration: "1m", drain: "5s").profile(scenario: scenario).drainMs == 5_000)
        #expect(try LoadOptions(duration: "1m", arrivalRate: "5/s", drain: "0s").profile(scenario: scenario).drainMs == 0)
        #expect(try LoadOptions(stages: "10s:5", drain: "250ms").profile(scenario: scenario).drainMs == 250)
    }

    @Test("--retry-backoff: 100ms..5s by default, set for closed and staged models, refused for an open one")
    func retryBackoff() throws {
        #expect(try LoadOptions(clients: 2).profile(scenario: scenario).retryBackoff == .standard)
        #expect(try LoadOptions(clients: 2, retryBackoff: "0").profile(scenario: scenario).retryBackoff == .none)
        #expect(
            try LoadOptions(stages: "10s:5", retryBackoff: "1s..2s").profile(scenario: scenario).retryBackoff
                == RetryBackoff(minMs: 1_000, maxMs: 2_000)
        )
        #expect {
            try LoadOptions(duration: "1m", arrivalRate: "5/s", retryBackoff: "0").profile(scenario: scenario)
        } throws: { error in
            (error as? InputError)?.message.hasPrefix("--retry-backoff is for a closed model") == true
        }
    }

    @Test(
        "--drain without a time limit, or not a duration, is one error naming the flag",
        arguments: [
            (LoadOptions(clients: 2, iterations: 3, drain: "5s"), "--drain needs a time-bounded run"),
            (LoadOptions(clients: 2, drain: "5s"), "--drain needs a time-bounded run"),
            (LoadOptions(clients: 2, duration: "1m", drain: "soon"), "invalid --drain 'soon'"),
        ]
    )
    func drainErrors(options: LoadOptions, expected: String) {
        #expect {
            try options.profile(scenario: scenario)
        } throws: { error in
            String(describing: error).hasPrefix(expected)
        }
    }
}
