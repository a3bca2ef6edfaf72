import Testing
import VoiceLoad

@Suite("Retry backoff: exponential ceilings, full jitter, reset by a ready session")
struct RetryBackoffTests {
    @Test("100ms..5s doubles from 100 ms and stops at 5 s")
    func ceilings() {
        let backoff = RetryBackoff.standard
        #expect((0...8).map { backoff.ceilingMs(afterFailures: $0) } == [0, 100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000])
        #expect(backoff.ceilingMs(afterFailures: 1_000) == 5_000)
        #expect(backoff.delayMs(afterFailures: 3, unit: 0) == 0)
        #expect(backoff.delayMs(afterFailures: 3, unit: 0.5) == 200)
        #expect(backoff.delayMs(afterFailures: 3, unit: 0.999) == 399)
    }

    @Test("parsing: MIN..MAX durations, 0 for none, one-line errors")
    func parsing() throws {
        #expect(try RetryBackoff(parsing: "100ms..5s") == .standard)
        #expect(try RetryBackoff(parsing: "0") == .none)
        #expect(try RetryBackoff(parsing: "50ms..400ms") == RetryBackoff(minMs: 50, maxMs: 400))
        #expect(RetryBackoff.standard.description == "100ms..5s")
        for bad in ["5s", "5s..1s", "0..1s", "x..1s", "1s..20m"] {
            #expect(throws: InputError.self, "\(bad)") { try RetryBackoff(parsing: bad) }
        }
    }

    @Test("a client's waits: drawn within the ceiling of its failures in a row, none after a ready session, the same for the same seed")
    func clientWaits() {
        var backoff = ClientBackoff(RetryBackoff(minMs: 100, maxMs: 400), seed: 7, client: 3)
        let waits = (0..<5).map { _ in backoff.waitMs(afterSessionGotReady: false) }
        for (index, wait) in waits.enumerated() {
            #expect((0..<[100, 200, 400, 400, 400][index]).contains(wait), "wait \(index + 1): \(wait)")
        }
        #expect(backoff.failuresInRow == 5)
        #expect(backoff.waitMs(afterSessionGotReady: true) == 0)
        #expect(backoff.failuresInRow == 0)
        var again = ClientBackoff(RetryBackoff(minMs: 100, maxMs: 400), seed: 7, client: 3)
        #expect((0..<5).map { _ in again.waitMs(afterSessionGotReady: false) } == waits)
        var none = ClientBackoff(.none, seed: 7, client: 3)
        #expect(none.waitMs(afterSessionGotReady: false) == 0)
    }
}
