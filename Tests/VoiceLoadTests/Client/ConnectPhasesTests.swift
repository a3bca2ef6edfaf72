import Testing
import VoiceLoad
import WSClient
import WSCore

@Suite("Connect phases from the opening's stamps")
struct ConnectPhasesTests {
    private let start = MonotonicInstant(nanoseconds: 5_000_000_000)

    private func at(microseconds: Int64) -> MonotonicInstant {
        start.advanced(byMicroseconds: microseconds)
    }

    @Test("wss to a host name: lookup, TCP, TLS and upgrade tile the connect exactly")
    func secureHostName() {
        let stamps = ConnectStamps(
            resolvedAt: at(microseconds: 1_250),
            tcpConnectedAt: at(microseconds: 2_000),
            tlsCompletedAt: at(microseconds: 5_500),
            openedAt: at(microseconds: 6_125)
        )
        let phases = ConnectPhases(stamps: stamps, startedAt: start)
        #expect(phases == ConnectPhases(dnsUs: 1_250, tcpUs: 750, tlsUs: 3_500, upgradeUs: 625))
        #expect(phases.totalUs == stamps.openedAt.microseconds(since: start))
    }

    @Test("ws to an IP literal: no lookup (dns 0), no TLS (absent), the upgrade counts from TCP")
    func plainIPLiteral() {
        let stamps = ConnectStamps(
            resolvedAt: nil,
            tcpConnectedAt: at(microseconds: 300),
            tlsCompletedAt: nil,
            openedAt: at(microseconds: 900)
        )
        let phases = ConnectPhases(stamps: stamps, startedAt: start)
        #expect(phases == ConnectPhases(dnsUs: 0, tcpUs: 300, tlsUs: nil, upgradeUs: 600))
        #expect(phases.totalUs == 900)
    }

    @Test("a stamp before the one it follows counts as that one: no negative phase, the sum unchanged")
    func outOfOrderStamps() {
        let stamps = ConnectStamps(
            resolvedAt: start.advanced(byMicroseconds: -10),
            tcpConnectedAt: at(microseconds: 400),
            tlsCompletedAt: at(microseconds: 350),
            openedAt: at(microseconds: 1_000)
        )
        let phases = ConnectPhases(stamps: stamps, startedAt: start)
        #expect(phases == ConnectPhases(dnsUs: 0, tcpUs: 400, tlsUs: 0, upgradeUs: 600))
        #expect(phases.totalUs == 1_000)
    }

    @Test("over many uneven stamps (to the nanosecond) the phases add up to connect_ms exactly, in µs")
    func sumsToConnect() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<1_000 {
            var next = start
            func later() -> MonotonicInstant {
                next = next.advanced(byNanoseconds: Int64.random(in: 0...40_000_000, using: &generator))
                return next
            }
            let stamps = ConnectStamps(resolvedAt: later(), tcpConnectedAt: later(), tlsCompletedAt: later(), openedAt: later())
            let phases = ConnectPhases(stamps: stamps, startedAt: start)
            #expect(phases.totalUs == stamps.openedAt.microseconds(since: start))
        }
    }
}
