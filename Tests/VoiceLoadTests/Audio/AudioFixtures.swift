import CSndFile
import Foundation

/// Test-time audio fixtures: synthetic signals, files written with libsndfile, and signal
/// measurements (RMS, zero crossings, Goertzel power).
enum AudioFixtures {
    /// A fresh, empty temporary directory; remove it with `removeDirectory`.
    static func makeTemporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("vload-audio-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static func removeDirectory(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A sine of `frequencyHz` with peak `amplitude` (1.0 = full scale), `durationMs` long.
    static func tone(frequencyHz: Double, amplitude: Double, durationMs: Int, rateHz: Int) -> [Float] {
        let count = rateHz * durationMs / 1_000
        return (0..<count).map { index in
            Float(amplitude * sin(2 * Double.pi * frequencyHz * Double(index) / Double(rateHz)))
        }
    }

    /// `durationMs` of digital silence.
    static func silence(durationMs: Int, rateHz: Int) -> [Float] {
        [Float](repeating: 0, count: rateHz * durationMs / 1_000)
    }

    /// Converts normalized floats to PCM16 samples.
    static func pcm16(_ signal: [Float]) -> [Int16] {
        signal.map { Int16(max(-32_768, min(32_767, ($0 * 32_768).rounded()))) }
    }

    /// Writes `channels` (equal-length, normalized floats) as an audio file with libsndfile.
    /// `format` is a full libsndfile format, e.g. `SF_FORMAT_WAV | SF_FORMAT_PCM_16`.
    static func write(path: String, channels: [[Float]], rateHz: Int, format: Int) throws {
        struct WriteFailure: Error, CustomStringConvertible { var description: String }
        let frameCount = channels[0].count
        var info = SF_INFO()
        info.samplerate = Int32(rateHz)
        info.channels = Int32(channels.count)
        info.format = Int32(format)
        guard sf_format_check(&info) != 0 else {
            throw WriteFailure(description: "libsndfile rejects format 0x\(String(format, radix: 16))")
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw WriteFailure(description: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(handle) }
        var interleaved = [Float](repeating: 0, count: frameCount * channels.count)
        for frame in 0..<frameCount {
            for channel in channels.indices {
                interleaved[frame * channels.count + channel] = channels[channel][frame]
            }
        }
        let written = interleaved.withUnsafeBufferPointer {
            sf_writef_float(handle, $0.baseAddress, sf_count_t(frameCount))
        }
        guard written == frameCount else {
            throw WriteFailure(description: "wrote \(written) of \(frameCount) frames")
        }
    }

    /// Writes a mono PCM16 WAV holding exactly `pcm16(signal)` (written as shorts, so no
    /// float-to-int scaling by libsndfile is involved).
    static func writeMonoWAV(path: String, signal: [Float], rateHz: Int) throws {
        try writeMonoWAV(path: path, samples: pcm16(signal), rateHz: rateHz)
    }

    /// Writes `samples` as a mono PCM16 WAV, sample for sample.
    static func writeMonoWAV(path: String, samples: [Int16], rateHz: Int) throws {
        struct WriteFailure: Error, CustomStringConvertible { var description: String }
        var info = SF_INFO()
        info.samplerate = Int32(rateHz)
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw WriteFailure(description: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(handle) }
        let written = samples.withUnsafeBufferPointer {
            sf_writef_short(handle, $0.baseAddress, sf_count_t(samples.count))
        }
        guard written == samples.count else {
            throw WriteFailure(description: "wrote \(written) of \(samples.count) frames")
        }
    }

    /// RMS normalized to full scale (1.0 = 32768).
    static func rms(_ samples: some Collection<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot() / 32_768
    }

    /// Sign changes from negative to non-negative and back, counting both directions.
    static func zeroCrossings(_ samples: some Collection<Int16>) -> Int {
        var count = 0
        var previousNegative: Bool?
        for sample in samples {
            let negative = sample < 0
            if let previous = previousNegative, previous != negative { count += 1 }
            previousNegative = negative
        }
        return count
    }

    /// Goertzel power of `frequencyHz` in `samples`, normalized by the sample count squared.
    static func goertzelPower(_ samples: [Int16], frequencyHz: Double, rateHz: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequencyHz / Double(rateHz))
        var previous = 0.0
        var beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) / 32_768 + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power =
            previous * previous + beforePrevious * beforePrevious
            - coefficient * previous * beforePrevious
        let count = Double(samples.count)
        return power / (count * count)
    }

    /// Deterministic pseudo-random bytes (64-bit LCG), for corrupt-file fixtures.
    static func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }
}
