/// How audio samples are encoded on the wire.
package enum SampleEncoding: String, Sendable, Hashable, Codable {
    /// Signed 16-bit little-endian PCM.
    case pcm16
    /// G.711 µ-law, 8 bits a sample.
    case mulaw
    /// G.711 A-law, 8 bits a sample.
    case alaw
}

/// A mono audio format: encoding and sample rate.
package struct AudioFormat: Sendable, Hashable, Codable, CustomStringConvertible {
    package var encoding: SampleEncoding
    package var sampleRateHz: Int

    package init(encoding: SampleEncoding, sampleRateHz: Int) {
        self.encoding = encoding
        self.sampleRateHz = sampleRateHz
    }

    package static func pcm16(_ sampleRateHz: Int) -> AudioFormat {
        AudioFormat(encoding: .pcm16, sampleRateHz: sampleRateHz)
    }

    package static let mulaw8k = AudioFormat(encoding: .mulaw, sampleRateHz: 8_000)
    package static let alaw8k = AudioFormat(encoding: .alaw, sampleRateHz: 8_000)

    package var bytesPerSample: Int {
        switch encoding {
        case .pcm16: return 2
        case .mulaw, .alaw: return 1
        }
    }

    /// The byte value of digital silence in this encoding.
    package var silenceByte: UInt8 {
        switch encoding {
        case .pcm16: return 0x00
        case .mulaw: return 0xFF
        case .alaw: return 0xD5
        }
    }

    /// `milliseconds` of digital silence in this format.
    package func silence(milliseconds: Int) -> [UInt8] {
        [UInt8](repeating: silenceByte, count: byteCount(forMilliseconds: milliseconds))
    }

    package func sampleCount(forMilliseconds milliseconds: Int) -> Int {
        sampleRateHz * milliseconds / 1_000
    }

    package func byteCount(forMilliseconds milliseconds: Int) -> Int {
        sampleCount(forMilliseconds: milliseconds) * bytesPerSample
    }

    /// Duration of `byteCount` bytes of audio in this format, in microseconds.
    package func durationUs(byteCount: Int) -> Int64 {
        Int64(byteCount / bytesPerSample) * 1_000_000 / Int64(sampleRateHz)
    }

    package var description: String {
        switch encoding {
        case .pcm16: return "PCM16 \(sampleRateHz) Hz"
        case .mulaw: return "µ-law \(sampleRateHz) Hz"
        case .alaw: return "A-law \(sampleRateHz) Hz"
        }
    }
}
