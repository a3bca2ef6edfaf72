import Testing

@testable import VoiceLoad

@Suite("Reconnect policy: parsing, backoff, retry decision")
struct ReconnectPolicyTests {
    private let policy = ReconnectPolicy(attempts: 3, backoffMs: 500, maxBackoffMs: 8_000)

    private func scenario(_ reconnect: String) throws -> Scenario {
        try ScenarioLoader.parse(yaml: "steps:\n  - connect\n  - hangup\n" + reconnect, path: "s.yaml")
    }

    @Test("reconnect: parses; backoff defaults to 500 ms, its cap to 8000 ms (or the backoff when larger); off when absent")
    func parses() throws {
        #expect(
            try scenario("reconnect: {attempts: 3, backoff_ms: 250, max_backoff_ms: 4000}\n").reconnect
                == ReconnectPolicy(attempts: 3, backoffMs: 250, maxBackoffMs: 4_000)
        )
        #expect(
            try scenario("reconnect:\n  attempts: 10\n").reconnect == ReconnectPolicy(attempts: 10, backoffMs: 500, maxBackoffMs: 8_000)
        )
        #expect(
            try scenario("reconnect: {attempts: 1, backoff_ms: 60000}\n").reconnect
                == ReconnectPolicy(attempts: 1, backoffMs: 60_000, maxBackoffMs: 60_000)
        )
        #expect(try scenario("reconnect: {attempts: 2, backoff_ms: 100, max_backoff_ms: 100}\n").reconnect?.maxBackoffMs == 100)
        #expect(try scenario("").reconnect == nil)
    }

    @Test(
        "a bad reconnect field is one error naming the file, the place and the field",
        arguments: [
            ("reconnect: {attempts: 0}\n", "s.yaml:4:23: 'reconnect.attempts' must be an integer from 1 to 10"),
            ("reconnect: {attempts: 11}\n", "s.yaml:4:23: 'reconnect.attempts' must be an integer from 1 to 10"),
            ("reconnect: {attempts: many}\n", "s.yaml:4:23: 'reconnect.attempts' must be an integer from 1 to 10"),
            ("reconnect: {attempts: 3, backoff_ms: 0}\n", "s.yaml:4:38: 'reconnect.backoff_ms' must be an integer from 1 to 60000"),
            ("reconnect: {attempts: 3, backoff_ms: 60001}\n", "s.yaml:4:38: 'reconnect.backoff_ms' must be an integer from 1 to 60000"),
            (
                "reconnect: {attempts: 3, backoff_ms: 900, max_backoff_ms: 800}\n",
                "s.yaml:4:59: 'reconnect.max_backoff_ms' (800) must be at least 'reconnect.backoff_ms' (900)"
            ),
            ("reconnect: {attempts: 3, max_backoff_ms: -1}\n", "s.yaml:4:42: 'reconnect.max_backoff_ms' must be a positive integer"),
            ("reconnect: {attempts: 3, backof_ms: 9}\n", "s.yaml:4:26: unknown field of 'reconnect' 'backof_ms'"),
            ("reconnect: {backoff_ms: 9}\n", "s.yaml:4:12: 'reconnect' needs 'attempts'"),
            ("reconnect: 3\n", "s.yaml:4:12: 'reconnect' must be a mapping"),
        ]
    )
    func rejects(yaml: String, expected: String) {
        #expect {
            try scenario(yaml)
        } throws: { error in
            String(describing: error).hasPrefix(expected)
        }
    }

    @Test("backoff doubles from backoff_ms per reconnect and stops at max_backoff_ms")
    func backoffSchedule() {
        #expect((1...7).map { policy.backoffMs(beforeReconnect: $0) } == [500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000])
        let wide = ReconnectPolicy(attempts: 10, backoffMs: 60_000, maxBackoffMs: Int.max)
        #expect(wide.backoffMs(beforeReconnect: 10) == 60_000 * 512)
        #expect(wide.backoffMs(beforeReconnect: 100) == Int.max)
        #expect(ReconnectPolicy(attempts: 2, backoffMs: 7, maxBackoffMs: 7).backoffMs(beforeReconnect: 2) == 7)
    }

    @Test("retry: a server or network failure with attempts left, waiting the next backoff")
    func retries() {
        for errorClass in [
            ErrorClass.closedByServer(code: 1011), .connectFailed, .timeout(step: "wait_ready"), .upgradeRejected(status: 429),
            .upgradeRejected(status: 503), .inBandError(code: nil), .malformedFrame, .restRejected(status: 500),
        ] {
            #expect(policy.decision(after: errorClass, reconnectsMade: 0, windingDown: false) == .reconnect(afterMs: 500), "\(errorClass)")
        }
        #expect(policy.decision(after: .connectFailed, reconnectsMade: 2, windingDown: false) == .reconnect(afterMs: 2_000))
    }

    @Test("no retry on authentication, on vload's or the scenario's own fault, or while winding down; spent attempts are exhausted")
    func givesUp() {
        for errorClass in [
            ErrorClass.upgradeRejected(status: 401), .upgradeRejected(status: 403), .restRejected(status: 401),
            .restRejected(status: 403), .generatorError, .toolReplyMissing,
        ] {
            #expect(!ReconnectPolicy.retries(errorClass))
            #expect(policy.decision(after: errorClass, reconnectsMade: 0, windingDown: false) == .giveUp(exhausted: false), "\(errorClass)")
        }
        #expect(policy.decision(after: .connectFailed, reconnectsMade: 0, windingDown: true) == .giveUp(exhausted: false))
        #expect(policy.decision(after: .connectFailed, reconnectsMade: 3, windingDown: false) == .giveUp(exhausted: true))
        #expect(policy.decision(after: .upgradeRejected(status: 401), reconnectsMade: 3, windingDown: false) == .giveUp(exhausted: false))
    }
}
