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
        #expect(phases == ConnectPhases(dnsMs: 1.25, tcpMs: 0.75, tlsMs: 3.5, upgradeMs: 0.625))
        #expect(phases.totalMs == stamps.openedAt.milliseconds(since: start))
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
        #expect(phases == ConnectPhases(dnsMs: 0, tcpMs: 0.3, tlsMs: nil, upgradeMs: 0.6))
        #expect(abs(phases.totalMs - 0.9) < 1e-9)
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
        #expect(phases == ConnectPhases(dnsMs: 0, tcpMs: 0.4, tlsMs: 0, upgradeMs: 0.6))
        #expect(phases.totalMs == 1)
    }

    @Test("over many uneven stamps the phases add up to connect_ms within a nanosecond")
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
            #expect(abs(phases.totalMs - stamps.openedAt.milliseconds(since: start)) < 1e-6)
        }
    }
}
