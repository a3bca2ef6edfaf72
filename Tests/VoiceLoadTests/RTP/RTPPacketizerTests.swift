import Testing
import WSCore

@testable import RTP

@Suite("RTP packetizer")
struct RTPPacketizerTests {
    @Test("sequence numbers +1 and timestamps +960 a frame, both wrapping; the marker on the talkspurt's first packet")
    func numbersAndStamps() {
        var packetizer = RTPPacketizer(payloadType: 111, ssrc: 0x0A0B_0C0D, firstSequenceNumber: 0xFFFE, firstTimestamp: 0xFFFF_FC40)
        let packets = (0..<3).map { index in packetizer.packet(payload: [UInt8(index)], timestampStepSamples: 960) }
        #expect(packets.map(\.header.sequenceNumber) == [0xFFFE, 0xFFFF, 0x0000])
        #expect(packets.map(\.header.timestamp) == [0xFFFF_FC40, 0, 960])
        #expect(packets.map(\.header.marker) == [true, false, false])
        // Hand-computed: V=2 → 0x80; M=1, PT=111 → 0xEF; 0xFFFE; 0xFFFFFC40; 0x0A0B0C0D; payload 0.
        #expect(packets[0].serialized() == [0x80, 0xEF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFC, 0x40, 0x0A, 0x0B, 0x0C, 0x0D, 0x00])
        // M=0 → 0x6F; 0xFFFF; 0x00000000.
        #expect(packets[1].serialized() == [0x80, 0x6F, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x0A, 0x0B, 0x0C, 0x0D, 0x01])
        #expect(packets[2].serialized() == [0x80, 0x6F, 0x00, 0x00, 0x00, 0x00, 0x03, 0xC0, 0x0A, 0x0B, 0x0C, 0x0D, 0x02])
    }

    @Test("skipped silence moves the clock, not the sequence, and the next packet starts a talkspurt")
    func skippedSilence() {
        var packetizer = RTPPacketizer(payloadType: 111, ssrc: 1, firstSequenceNumber: 10, firstTimestamp: 0)
        _ = packetizer.packet(payload: [], timestampStepSamples: 960)
        packetizer.skip(samples: 3 * 960)
        let next = packetizer.packet(payload: [], timestampStepSamples: 960)
        #expect(next.header.sequenceNumber == 11)
        #expect(next.header.timestamp == 4 * 960)
        #expect(next.header.marker)
        packetizer.beginTalkspurt()
        #expect(packetizer.packet(payload: [], timestampStepSamples: 960).header.marker)
    }

    @Test("the SSRC and first numbers come from the generator: the same seed, the same stream")
    func seeded() {
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        var other = SeededGenerator(seed: 43)
        let a = RTPPacketizer(payloadType: 111, generator: &first)
        let b = RTPPacketizer(payloadType: 111, generator: &second)
        let c = RTPPacketizer(payloadType: 111, generator: &other)
        #expect(a == b)
        #expect(a.ssrc != c.ssrc)
        #expect(a.payloadType == 111)
    }
}
