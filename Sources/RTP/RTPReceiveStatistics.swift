/// The receiving side's statistics of one RTP stream (RFC 3550 §6.4.1 and appendix A): packets
/// received, expected and lost from the extended highest sequence number (A.1, A.3), interarrival
/// jitter (A.8) and packets that arrived after a later one. A value with no I/O: the transport
/// records each packet with the instant it was read.
///
/// As libwebrtc and aiortc do, the highest sequence number, and the jitter, move only on a packet
/// newer than every one before (modulo 2^16); an older one counts as received and as late.
package struct RTPReceiveStatistics: Sendable, Hashable {
    /// The stream's RTP clock (48,000 for Opus).
    package let clockRateHz: Int
    package private(set) var packetsReceived = 0
    /// Packets that arrived after one with a later sequence number (reordered, or duplicated).
    package private(set) var latePackets = 0
    private var baseSequenceNumber: UInt16 = 0
    private var highestSequenceNumber: UInt16 = 0
    /// Wraps of the sequence number, times 65,536 (RFC 3550 A.1's `cycles`).
    private var cycles = 0
    /// The jitter in timestamp units times 16 (RFC 3550 A.8's integer form).
    private var jitterQ4 = 0
    private var lastArrivalTimestampUnits: Int64 = 0
    private var lastTimestamp: UInt32 = 0

    package init(clockRateHz: Int) {
        precondition(clockRateHz > 0, "an RTP clock rate must be positive, got \(clockRateHz)")
        self.clockRateHz = clockRateHz
    }

    /// Counts a packet read at `arrivalNs` on a monotonic clock.
    package mutating func record(sequenceNumber: UInt16, timestamp: UInt32, arrivalNs: UInt64) {
        packetsReceived += 1
        if packetsReceived == 1 {
            baseSequenceNumber = sequenceNumber
            highestSequenceNumber = sequenceNumber
            record(timestamp: timestamp, arrivalNs: arrivalNs, first: true)
            return
        }
        // Newer when it is ahead by less than half the sequence space (RFC 1982 serial numbers).
        let ahead = sequenceNumber &- highestSequenceNumber
        guard ahead != 0, ahead < 0x8000 else {
            latePackets += 1
            return
        }
        if sequenceNumber < highestSequenceNumber { cycles += 1 << 16 }
        highestSequenceNumber = sequenceNumber
        record(timestamp: timestamp, arrivalNs: arrivalNs, first: false)
    }

    /// RFC 3550 A.8: J += (|D| − J) / 16, where D is the change in transit time (arrival in
    /// timestamp units − RTP timestamp) from the previous packet. Packets of one instant (same
    /// timestamp) are skipped.
    private mutating func record(timestamp: UInt32, arrivalNs: UInt64, first: Bool) {
        // The arrival instant in timestamp units, from a 128-bit product: ns × 48,000 passes 2^64
        // after 4.4 days of uptime.
        let arrivalUnits = Int64(
            truncatingIfNeeded: UInt64(1_000_000_000).dividingFullWidth(arrivalNs.multipliedFullWidth(by: UInt64(clockRateHz))).quotient
        )
        if !first, timestamp != lastTimestamp {
            let transitChange =
                (arrivalUnits - lastArrivalTimestampUnits) - Int64(Int32(bitPattern: timestamp &- lastTimestamp))
            jitterQ4 += Int(abs(transitChange)) - ((jitterQ4 + 8) >> 4)
        }
        lastArrivalTimestampUnits = arrivalUnits
        lastTimestamp = timestamp
    }

    /// The extended highest sequence number received (RFC 3550 A.1: cycles + highest).
    package var extendedHighestSequenceNumber: Int { cycles + Int(highestSequenceNumber) }

    /// Packets expected from the first received to the extended highest (RFC 3550 A.3).
    package var packetsExpected: Int {
        packetsReceived == 0 ? 0 : extendedHighestSequenceNumber - Int(baseSequenceNumber) + 1
    }

    /// Expected − received (RFC 3550 A.3): negative when duplicates outnumber losses.
    package var packetsLost: Int { packetsExpected - packetsReceived }

    /// The interarrival jitter in timestamp units, as an RTCP report carries it (RFC 3550 A.8: the
    /// integer form's value shifted down 4 bits).
    package var jitterTimestampUnits: Int { jitterQ4 >> 4 }

    /// The interarrival jitter in milliseconds, from the unrounded estimate.
    package var jitterMs: Double { Double(jitterQ4) / 16 * 1_000 / Double(clockRateHz) }
}
