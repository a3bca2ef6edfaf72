extension AudioLevel {
    /// Whether linear PCM audio is digital silence: every byte 0 (so every sample, at any width).
    /// Read eight bytes at a time: it runs on every agent packet of a WebRTC call, and a
    /// packet of 20 ms at 48 kHz is 1,920 bytes.
    package static func isDigitalSilence(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 8 <= bytes.count {
            if bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            if bytes[offset] != 0 { return false }
            offset += 1
        }
        return true
    }

    package static func isDigitalSilence(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isDigitalSilence($0) }
    }
}
