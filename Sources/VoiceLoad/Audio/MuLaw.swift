/// G.711 µ-law companding (ITU-T G.711), as telephony streams use it.
package enum MuLaw {
    private static let bias: Int32 = 0x84
    private static let clip: Int32 = 32_635

    /// Encodes one linear PCM16 sample to µ-law.
    package static func encode(_ sample: Int16) -> UInt8 {
        var value = Int32(sample)
        let sign: Int32 = value < 0 ? 0x80 : 0
        if value < 0 { value = -value }
        value = min(value, clip) + bias
        var exponent: Int32 = 7
        var mask: Int32 = 0x4000
        while exponent > 0 && value & mask == 0 {
            exponent -= 1
            mask >>= 1
        }
        let mantissa = (value >> (exponent + 3)) & 0x0F
        return UInt8(truncatingIfNeeded: ~(sign | (exponent << 4) | mantissa))
    }

    /// Decodes one µ-law byte to linear PCM16.
    package static func decode(_ byte: UInt8) -> Int16 {
        let value = Int32(~byte & 0xFF)
        let sign = value & 0x80
        let exponent = (value >> 4) & 0x07
        let mantissa = value & 0x0F
        let magnitude = ((mantissa << 3) + bias) << exponent
        let linear = magnitude - bias
        return Int16(sign != 0 ? -linear : linear)
    }
}
