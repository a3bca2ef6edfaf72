import Testing

@testable import RTP

@Suite("RTP packets (RFC 3550 §5.1)")
struct RTPPacketTests {
    @Test("a 20 ms Opus packet's header is the bytes RFC 3550 §5.1 lays out")
    func headerBytes() {
        let packet = RTPPacket(
            header: RTPHeader(marker: true, payloadType: 111, sequenceNumber: 0x1234, timestamp: 0xDEAD_BEEF, ssrc: 0x0102_0304),
            payload: [0xAA, 0xBB]
        )
        // V=2 P=0 X=0 CC=0 → 0x80; M=1 PT=111 → 0x80 | 0x6F = 0xEF; then sequence, timestamp, SSRC big-endian.
        #expect(packet.serialized() == [0x80, 0xEF, 0x12, 0x34, 0xDE, 0xAD, 0xBE, 0xEF, 0x01, 0x02, 0x03, 0x04, 0xAA, 0xBB])
    }

    @Test("CSRCs, a header extension and padding are laid out and read back")
    func everythingRoundTrips() throws {
        let packet = RTPPacket(
            header: RTPHeader(
                marker: false,
                payloadType: 0,
                sequenceNumber: 0xFFFF,
                timestamp: 0,
                ssrc: 0xFFFF_FFFF,
                csrcs: [1, 0xCAFE_F00D],
                headerExtension: RTPHeaderExtension(profile: 0xBEDE, data: [0x10, 0x28, 0x00, 0x00])
            ),
            payload: [1, 2, 3],
            paddingBytes: 4
        )
        let bytes = packet.serialized()
        // V=2 P=1 X=1 CC=2 → 0b1011_0010.
        #expect(Array(bytes[0..<12]) == [0xB2, 0x00, 0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Array(bytes[12..<20]) == [0, 0, 0, 1, 0xCA, 0xFE, 0xF0, 0x0D])
        #expect(Array(bytes[20..<28]) == [0xBE, 0xDE, 0x00, 0x01, 0x10, 0x28, 0x00, 0x00])
        #expect(Array(bytes[28...]) == [1, 2, 3, 0, 0, 0, 4])
        #expect(bytes.count == packet.byteCount)
        #expect(try RTPPacket(parsing: bytes) == packet)
    }

    @Test("an empty payload with padding reads back")
    func emptyPayloadWithPadding() throws {
        let packet = RTPPacket(header: RTPHeader(payloadType: 111, sequenceNumber: 1, timestamp: 2, ssrc: 3), payload: [], paddingBytes: 1)
        #expect(packet.serialized().count == 13)
        #expect(try RTPPacket(parsing: packet.serialized()) == packet)
    }

    @Test(
        "malformed packets are typed errors",
        arguments: [
            ([0x80, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0], RTPParseError.tooShort(byteCount: 11)),
            ([0x40, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], .unsupportedVersion(1)),
            ([0x00, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], .unsupportedVersion(0)),
            ([0xC0, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], .unsupportedVersion(3)),
            ([0x82, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], .truncatedCSRCList(csrcCount: 2, byteCount: 16)),
            ([0x90, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0xBE, 0xDE], .truncatedHeaderExtension(byteCount: 14)),
            ([0x90, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0xBE, 0xDE, 0, 1, 0x10], .truncatedHeaderExtension(byteCount: 17)),
            ([0xA0, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0], .invalidPadding(paddingBytes: 0, availableBytes: 2)),
            ([0xA0, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7, 3], .invalidPadding(paddingBytes: 3, availableBytes: 2)),
        ] as [([UInt8], RTPParseError)]
    )
    func malformed(bytes: [UInt8], error: RTPParseError) {
        #expect(throws: error) { try RTPPacket(parsing: bytes) }
    }

    @Test("padding that fills everything after the header leaves an empty payload")
    func paddingFillsThePacket() throws {
        let packet = try RTPPacket(parsing: [0xA0, 0x6F, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2])
        #expect(packet.payload.isEmpty)
        #expect(packet.paddingBytes == 2)
    }
}
