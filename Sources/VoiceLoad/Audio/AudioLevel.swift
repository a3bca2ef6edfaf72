/// Loudness of encoded audio, for telling voiced agent audio from silence.
package enum AudioLevel {
    /// RMS of the samples in `bytes`, normalized to 0 (silence) … 1 (full scale).
    package static func rms(of bytes: [UInt8], format: AudioFormat) -> Float {
        bytes.withUnsafeBufferPointer { rms(of: $0, format: format) }
    }

    package static func rms(of bytes: UnsafeBufferPointer<UInt8>, format: AudioFormat) -> Float {
        var sumOfSquares: Double = 0
        var count = 0
        switch format.encoding {
        case .pcm16:
            var index = 0
            while index + 1 < bytes.count {
                let sample = Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
                let value = Double(sample)
                sumOfSquares += value * value
                count += 1
                index += 2
            }
        case .mulaw, .alaw:
            let decode = format.encoding == .mulaw ? MuLaw.decode : ALaw.decode
            for byte in bytes {
                let value = Double(decode(byte))
                sumOfSquares += value * value
                count += 1
            }
        }
        guard count > 0 else { return 0 }
        return Float((sumOfSquares / Double(count)).squareRoot() / 32_768)
    }

    /// RMS of PCM samples, normalized to 0 … 1.
    package static func rms(of samples: ArraySlice<Int16>) -> Float {
        guard !samples.isEmpty else { return 0 }
        var sumOfSquares: Double = 0
        for sample in samples {
            let value = Double(sample)
            sumOfSquares += value * value
        }
        return Float((sumOfSquares / Double(samples.count)).squareRoot() / 32_768)
    }
}
