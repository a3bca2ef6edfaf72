/// How audio samples are encoded on the wire.
public enum SampleEncoding: String, Sendable, Hashable, Codable {
    /// Signed 16-bit little-endian PCM.
    case pcm16
    /// G.711 µ-law, 8 bits a sample.
    case mulaw
    /// G.711 A-law, 8 bits a sample.
    case alaw
}

/// A mono audio format: encoding and sample rate.
public struct AudioFormat: Sendable, Hashable, Codable, CustomStringConvertible {
    public var encoding: SampleEncoding
    public var sampleRateHz: Int

    public init(encoding: SampleEncoding, sampleRateHz: Int) {
        self.encoding = encoding
        self.sampleRateHz = sampleRateHz
    }

    public static func pcm16(_ sampleRateHz: Int) -> AudioFormat {
        AudioFormat(encoding: .pcm16, sampleRateHz: sampleRateHz)
    }

    public static let mulaw8k = AudioFormat(encoding: .mulaw, sampleRateHz: 8_000)
    public static let alaw8k = AudioFormat(encoding: .alaw, sampleRateHz: 8_000)

    public var bytesPerSample: Int {
        switch encoding {
        case .pcm16: return 2
        case .mulaw, .alaw: return 1
        }
    }

    /// The byte value of digital silence in this encoding.
    public var silenceByte: UInt8 {
        switch encoding {
        case .pcm16: return 0x00
        case .mulaw: return 0xFF
        case .alaw: return 0xD5
        }
    }

    public func sampleCount(forMilliseconds milliseconds: Int) -> Int {
        sampleRateHz * milliseconds / 1_000
    }

    public func byteCount(forMilliseconds milliseconds: Int) -> Int {
        sampleCount(forMilliseconds: milliseconds) * bytesPerSample
    }

    /// Duration of `byteCount` bytes of audio in this format, in microseconds.
    public func durationUs(byteCount: Int) -> Int64 {
        Int64(byteCount / bytesPerSample) * 1_000_000 / Int64(sampleRateHz)
    }

    public var description: String {
        switch encoding {
        case .pcm16: return "PCM16 \(sampleRateHz) Hz"
        case .mulaw: return "µ-law \(sampleRateHz) Hz"
        case .alaw: return "A-law \(sampleRateHz) Hz"
        }
    }
}
