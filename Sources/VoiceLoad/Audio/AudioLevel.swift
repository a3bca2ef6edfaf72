import Foundation

/// Loudness of audio, the one routine behind vload's three speech detectors: the scenario
/// clips' speech boundaries (`SpeechDetector`), the agent's first voiced audio (`TurnTracker`)
/// and the simulator's voice activity detection. Levels are RMS relative to full scale (32,768),
/// 0 … 1; thresholds are given in dBFS and turned into a level by `amplitude(dbfs:)`.
package enum AudioLevel {
    /// The level of a threshold in dBFS (or of a gain in dB): 10^(dB / 20); −40 dBFS is 0.01.
    package static func amplitude(dbfs: Double) -> Double {
        pow(10, dbfs / 20)
    }

    /// The power ratio of a level difference in dB: 10^(dB / 10); 10 dB is a ratio of 10.
    package static func powerRatio(db: Double) -> Double {
        pow(10, db / 10)
    }

    /// The sum of the squared samples `start..<start + count` of encoded audio (a sample is two
    /// bytes in PCM16, one in µ-law and A-law), exact in integers.
    package static func sumOfSquares(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        count: Int,
        encoding: SampleEncoding
    ) -> Int64 {
        var sum: Int64 = 0
        switch encoding {
        case .pcm16:
            for index in start..<(start + count) {
                let sample = Int64(Int16(bitPattern: UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8))
                sum += sample * sample
            }
        case .mulaw, .alaw:
            let decode = encoding == .mulaw ? MuLaw.decode : ALaw.decode
            for index in start..<(start + count) {
                let sample = Int64(decode(bytes[index]))
                sum += sample * sample
            }
        }
        return sum
    }

    /// The level (0 … 1) of `count` samples whose squares sum to `sumOfSquares`; 0 for none.
    package static func level(sumOfSquares: Int64, count: Int) -> Double {
        guard count > 0 else { return 0 }
        return (Double(sumOfSquares) / Double(count)).squareRoot() / 32_768
    }

    /// The level (0 … 1) of the encoded audio in `bytes`.
    package static func rms(of bytes: [UInt8], format: AudioFormat) -> Float {
        bytes.withUnsafeBufferPointer { rms(of: $0, format: format) }
    }

    package static func rms(of bytes: UnsafeBufferPointer<UInt8>, format: AudioFormat) -> Float {
        let count = format.encoding == .pcm16 ? bytes.count / 2 : bytes.count
        return Float(level(sumOfSquares: sumOfSquares(bytes, from: 0, count: count, encoding: format.encoding), count: count))
    }

    /// The level (0 … 1) of PCM samples.
    package static func rms(of samples: ArraySlice<Int16>) -> Double {
        var sum: Int64 = 0
        for sample in samples { sum += Int64(sample) * Int64(sample) }
        return level(sumOfSquares: sum, count: samples.count)
    }
}
