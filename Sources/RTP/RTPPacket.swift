/// One RTP packet (RFC 3550 §5.1) as a value: header, payload and padding; written to and read
/// from bytes with no I/O.
package struct RTPPacket: Sendable, Hashable {
    package var header: RTPHeader
    package var payload: [UInt8]
    /// Padding after the payload, its last byte included (which holds this count); 0 for none.
    package var paddingBytes: Int

    package init(header: RTPHeader, payload: [UInt8], paddingBytes: Int = 0) {
        precondition((0...255).contains(paddingBytes), "RTP padding is 0 … 255 bytes, got \(paddingBytes)")
        self.header = header
        self.payload = payload
        self.paddingBytes = paddingBytes
    }

    /// The packet's length on the wire.
    package var byteCount: Int { header.byteCount + payload.count + paddingBytes }

    /// The packet as sent: big-endian fields, padding of zeros ending in its count.
    package func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        let flags: UInt8 =
            2 << 6 | (paddingBytes > 0 ? 0x20 : 0) | (header.headerExtension != nil ? 0x10 : 0) | UInt8(header.csrcs.count)
        bytes.append(flags)
        bytes.append((header.marker ? 0x80 : 0) | header.payloadType)
        Self.append(header.sequenceNumber, to: &bytes)
        Self.append(header.timestamp, to: &bytes)
        Self.append(header.ssrc, to: &bytes)
        for csrc in header.csrcs { Self.append(csrc, to: &bytes) }
        if let headerExtension = header.headerExtension {
            Self.append(headerExtension.profile, to: &bytes)
            Self.append(UInt16(headerExtension.data.count / 4), to: &bytes)
            bytes.append(contentsOf: headerExtension.data)
        }
        bytes.append(contentsOf: payload)
        if paddingBytes > 0 {
            bytes.append(contentsOf: repeatElement(0, count: paddingBytes - 1))
            bytes.append(UInt8(paddingBytes))
        }
        return bytes
    }

    /// Reads a packet; bytes that are not one are a typed error naming what is wrong.
    package init(parsing bytes: some Collection<UInt8>) throws(RTPParseError) {
        let bytes = Array(bytes)
        let count = bytes.count
        guard count >= RTPHeader.fixedByteCount else { throw .tooShort(byteCount: count) }
        let version = Int(bytes[0] >> 6)
        guard version == 2 else { throw .unsupportedVersion(version) }
        let hasPadding = bytes[0] & 0x20 != 0
        let hasExtension = bytes[0] & 0x10 != 0
        let csrcCount = Int(bytes[0] & 0x0F)
        var offset = RTPHeader.fixedByteCount
        guard count >= offset + 4 * csrcCount else { throw .truncatedCSRCList(csrcCount: csrcCount, byteCount: count) }
        var csrcs: [UInt32] = []
        for index in 0..<csrcCount { csrcs.append(Self.uint32(bytes, at: offset + 4 * index)) }
        offset += 4 * csrcCount
        var headerExtension: RTPHeaderExtension?
        if hasExtension {
            guard count >= offset + 4 else { throw .truncatedHeaderExtension(byteCount: count) }
            let profile = Self.uint16(bytes, at: offset)
            let dataBytes = 4 * Int(Self.uint16(bytes, at: offset + 2))
            offset += 4
            guard count >= offset + dataBytes else { throw .truncatedHeaderExtension(byteCount: count) }
            headerExtension = RTPHeaderExtension(profile: profile, data: Array(bytes[offset..<(offset + dataBytes)]))
            offset += dataBytes
        }
        var paddingBytes = 0
        if hasPadding {
            paddingBytes = Int(bytes[count - 1])
            guard paddingBytes > 0, paddingBytes <= count - offset else {
                throw .invalidPadding(paddingBytes: paddingBytes, availableBytes: count - offset)
            }
        }
        self.header = RTPHeader(
            marker: bytes[1] & 0x80 != 0,
            payloadType: bytes[1] & 0x7F,
            sequenceNumber: Self.uint16(bytes, at: 2),
            timestamp: Self.uint32(bytes, at: 4),
            ssrc: Self.uint32(bytes, at: 8),
            csrcs: csrcs,
            headerExtension: headerExtension
        )
        self.payload = Array(bytes[offset..<(count - paddingBytes)])
        self.paddingBytes = paddingBytes
    }

    private static func append(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        append(UInt16(truncatingIfNeeded: value >> 16), to: &bytes)
        append(UInt16(truncatingIfNeeded: value), to: &bytes)
    }

    private static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(uint16(bytes, at: offset)) << 16 | UInt32(uint16(bytes, at: offset + 2))
    }
}
