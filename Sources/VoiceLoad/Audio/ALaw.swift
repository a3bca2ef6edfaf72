/// G.711 A-law companding (ITU-T G.711), the telephony encoding outside North America and Japan.
package enum ALaw {
    /// The upper end of each of the 8 segments, on the 13-bit magnitude.
    private static let segmentEnds: [Int32] = [0x1F, 0x3F, 0x7F, 0xFF, 0x1FF, 0x3FF, 0x7FF, 0xFFF]

    /// Encodes one linear PCM16 sample to A-law.
    package static func encode(_ sample: Int16) -> UInt8 {
        var value = Int32(sample) >> 3
        let mask: Int32
        if value >= 0 {
            mask = 0xD5
        } else {
            mask = 0x55
            value = -value - 1
        }
        guard let segment = segmentEnds.firstIndex(where: { value <= $0 }) else { return UInt8(0x7F ^ mask) }
        let mantissa = (segment < 2 ? value >> 1 : value >> Int32(segment)) & 0x0F
        return UInt8(truncatingIfNeeded: (Int32(segment) << 4 | mantissa) ^ mask)
    }

    /// Decodes one A-law byte to linear PCM16.
    package static func decode(_ byte: UInt8) -> Int16 {
        let value = Int32(byte ^ 0x55)
        var magnitude = (value & 0x0F) << 4
        let segment = (value & 0x70) >> 4
        switch segment {
        case 0: magnitude += 8
        case 1: magnitude += 0x108
        default: magnitude = (magnitude + 0x108) << (segment - 1)
        }
        return Int16(value & 0x80 != 0 ? magnitude : -magnitude)
    }
}
