import CSndFile
import Foundation

/// Reads audio files into mono `AudioClip`s through libsndfile.
///
/// Every format libsndfile knows is accepted: WAV PCM 8/16/24/32-bit, 32/64-bit float,
/// µ-law, A-law, and FLAC/Ogg/AIFF and friends, at any sample rate. Samples are read as
/// normalized floats (libsndfile's scaling for integer formats is exact for 16-bit data and
/// correct for float data), multichannel audio is downmixed to mono by averaging the
/// channels, and the result is rounded and clipped to Int16.
package enum WAVReader {
    /// Frames read from libsndfile per call.
    private static let chunkFrames = 4_096

    /// Decodes the audio file at `path` to mono PCM16 at the file's own sample rate.
    ///
    /// - Throws: `AudioFileError.fileNotFound` when nothing is at `path`,
    ///   `.unreadable` (with libsndfile's message) when it is not a decodable audio file,
    ///   `.emptyAudio` when it holds no frames.
    package static func read(path: String) throws(AudioFileError) -> AudioClip {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        if isDirectory.boolValue {
            throw .unreadable(path: path, reason: "is a directory")
        }

        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw .unreadable(path: path, reason: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(handle) }
        return try decode(handle, info: info, path: path)
    }

    /// Decodes the open file `handle` (its header `info`) to mono PCM16; `path` names it in errors.
    static func decode(_ handle: OpaquePointer, info: SF_INFO, path: String) throws(AudioFileError) -> AudioClip {
        let channels = Int(info.channels)
        guard channels > 0, info.samplerate > 0 else {
            throw .unreadable(
                path: path,
                reason: "invalid header (\(info.channels) channels, \(info.samplerate) Hz)"
            )
        }

        var samples: [Int16] = []
        if info.frames > 0 && info.frames < Int64(Int32.max) {
            samples.reserveCapacity(Int(info.frames))
        }
        var interleaved = [Float](repeating: 0, count: chunkFrames * channels)
        while true {
            let framesRead = interleaved.withUnsafeMutableBufferPointer { buffer in
                sf_readf_float(handle, buffer.baseAddress, sf_count_t(chunkFrames))
            }
            guard framesRead > 0 else { break }
            appendDownmixed(
                interleaved,
                frameCount: Int(framesRead),
                channels: channels,
                to: &samples
            )
        }
        if sf_error(handle) != 0 {
            throw .unreadable(path: path, reason: String(cString: sf_strerror(handle)))
        }
        guard !samples.isEmpty else { throw .emptyAudio(path: path) }
        return AudioClip(samples: samples, sampleRateHz: Int(info.samplerate))
    }

    /// Averages each frame's channels and appends it as a clipped Int16 sample.
    private static func appendDownmixed(
        _ interleaved: [Float],
        frameCount: Int,
        channels: Int,
        to samples: inout [Int16]
    ) {
        if channels == 1 {
            for index in 0..<frameCount {
                samples.append(pcm16(interleaved[index]))
            }
            return
        }
        let scale = 1 / Float(channels)
        for frame in 0..<frameCount {
            let base = frame * channels
            var sum: Float = 0
            for channel in 0..<channels {
                sum += interleaved[base + channel]
            }
            samples.append(pcm16(sum * scale))
        }
    }

    /// Converts a normalized float sample (±1.0 full scale) to Int16, rounding and clipping.
    static func pcm16(_ value: Float) -> Int16 {
        guard !value.isNaN else { return 0 }
        let scaled = (value * 32_768).rounded()
        if scaled >= 32_767 { return .max }
        if scaled <= -32_768 { return .min }
        return Int16(scaled)
    }
}
