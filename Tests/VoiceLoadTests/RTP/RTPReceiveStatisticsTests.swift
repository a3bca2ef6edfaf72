import Testing

@testable import RTP

@Suite("RTP receive statistics (RFC 3550 A.1, A.3, A.8)")
struct RTPReceiveStatisticsTests {
    /// Records `(sequence number, timestamp, arrival ms)` at 48 kHz.
    private func statistics(_ packets: [(UInt16, UInt32, UInt64)]) -> RTPReceiveStatistics {
        var statistics = RTPReceiveStatistics(clockRateHz: 48_000)
        for (sequenceNumber, timestamp, arrivalMs) in packets {
            statistics.record(sequenceNumber: sequenceNumber, timestamp: timestamp, arrivalNs: arrivalMs * 1_000_000)
        }
        return statistics
    }

    @Test("nothing received: nothing expected, nothing lost")
    func empty() {
        let statistics = statistics([])
        #expect(statistics.packetsExpected == 0)
        #expect(statistics.packetsLost == 0)
        #expect(statistics.jitterMs == 0)
    }

    @Test("a lost packet across the sequence wrap: extended highest 65,536 + 2, expected 5, lost 1")
    func lossAcrossTheWrap() {
        let statistics = statistics([(65_534, 0, 0), (65_535, 960, 20), (1, 2_880, 60), (2, 3_840, 80)])
        #expect(statistics.packetsReceived == 4)
        #expect(statistics.extendedHighestSequenceNumber == 65_538)
        #expect(statistics.packetsExpected == 5)
        #expect(statistics.packetsLost == 1)
        #expect(statistics.latePackets == 0)
        #expect(statistics.jitterTimestampUnits == 0)
    }

    @Test("a reordered packet is received and late, not lost; a duplicate makes the loss negative")
    func reorderingAndDuplicates() {
        let reordered = statistics([(10, 0, 0), (12, 1_920, 40), (11, 960, 41), (13, 2_880, 60)])
        #expect(reordered.packetsExpected == 4)
        #expect(reordered.packetsLost == 0)
        #expect(reordered.latePackets == 1)
        let duplicated = statistics([(10, 0, 0), (11, 960, 20), (11, 960, 21)])
        #expect(duplicated.packetsExpected == 2)
        #expect(duplicated.packetsLost == -1)
        #expect(duplicated.latePackets == 1)
        let lateAcrossTheWrap = statistics([(65_535, 0, 0), (1, 1_920, 40), (0, 960, 41)])
        #expect(lateAcrossTheWrap.packetsExpected == 3)
        #expect(lateAcrossTheWrap.packetsLost == 0)
        #expect(lateAcrossTheWrap.latePackets == 1)
    }

    @Test("jitter by hand: transit changes 0, 240, −240 timestamp units")
    func jitterByHand() {
        // Arrivals 0, 20, 45, 60 ms are 0, 960, 2,160, 2,880 units; timestamps step 960.
        // D = 0 → J16 = 0; D = 240 → J16 = 0 + 240 − ⌊8/16⌋ = 240; |D| = 240 → J16 = 240 + 240 − ⌊248/16⌋ = 465.
        let statistics = statistics([(1, 0, 0), (2, 960, 20), (3, 1_920, 45), (4, 2_880, 60)])
        #expect(statistics.jitterTimestampUnits == 29)
        #expect(statistics.jitterMs == 465.0 / 16 / 48)
    }

    @Test("jitter across the timestamp wrap sees a steady stream as steady")
    func jitterAcrossTheTimestampWrap() {
        let statistics = statistics([(1, 0xFFFF_FC40, 0), (2, 0, 20), (3, 960, 40)])
        #expect(statistics.jitterTimestampUnits == 0)
    }

    @Test("a late packet leaves the jitter alone")
    func lateDoesNotMoveJitter() {
        let inOrder = statistics([(1, 0, 0), (2, 960, 25), (4, 2_880, 60)])
        let withLate = statistics([(1, 0, 0), (2, 960, 25), (4, 2_880, 60), (3, 1_920, 500)])
        #expect(inOrder.jitterMs > 0)
        #expect(withLate.jitterMs == inOrder.jitterMs)
    }

    @Test("arrival instants after days of uptime do not overflow the clock conversion")
    func longUptime() {
        var statistics = RTPReceiveStatistics(clockRateHz: 48_000)
        let tenDaysNs: UInt64 = 10 * 86_400 * 1_000_000_000
        statistics.record(sequenceNumber: 1, timestamp: 0, arrivalNs: tenDaysNs)
        statistics.record(sequenceNumber: 2, timestamp: 960, arrivalNs: tenDaysNs + 20_000_000)
        #expect(statistics.jitterTimestampUnits == 0)
    }
}
