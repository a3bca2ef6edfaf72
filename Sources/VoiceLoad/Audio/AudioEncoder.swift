/// Converts linear PCM16 samples to and from an `AudioFormat`'s wire bytes.
///
/// PCM16 is signed 16-bit little-endian; µ-law and A-law are G.711 via `MuLaw` and `ALaw`. The sample rate of the
/// format is not touched here: resample first (`Resampler`).
package enum AudioEncoder {
    /// Encodes `samples` into `format`'s byte representation.
    package static func encode(_ samples: [Int16], as format: AudioFormat) -> [UInt8] {
        switch format.encoding {
        case .pcm16:
            var bytes = [UInt8](repeating: 0, count: samples.count * 2)
            for (index, sample) in samples.enumerated() {
                let bits = UInt16(bitPattern: sample)
                bytes[2 * index] = UInt8(truncatingIfNeeded: bits)
                bytes[2 * index + 1] = UInt8(truncatingIfNeeded: bits >> 8)
            }
            return bytes
        case .mulaw:
            return samples.map(MuLaw.encode)
        case .alaw:
            return samples.map(ALaw.encode)
        }
    }

    /// Decodes `format`'s bytes back to linear PCM16. A trailing odd byte of PCM16 is ignored.
    package static func decode(_ bytes: [UInt8], format: AudioFormat) -> [Int16] {
        switch format.encoding {
        case .pcm16:
            let count = bytes.count / 2
            var samples = [Int16](repeating: 0, count: count)
            for index in 0..<count {
                let bits = UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8
                samples[index] = Int16(bitPattern: bits)
            }
            return samples
        case .mulaw:
            return bytes.map(MuLaw.decode)
        case .alaw:
            return bytes.map(ALaw.decode)
        }
    }
}
