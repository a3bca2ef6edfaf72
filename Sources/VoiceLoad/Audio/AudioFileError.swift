/// Why an audio input file could not be turned into audio vload can send.
///
/// Every case names the file, and `description` is a one-line message suitable for a
/// command-line error (exit code 2, docs/ci.md, "Exit codes").
package enum AudioFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No file exists at `path`.
    case fileNotFound(path: String)
    /// The file exists but libsndfile cannot decode it; `reason` is libsndfile's `sf_strerror` text.
    case unreadable(path: String, reason: String)
    /// The file decodes but holds no audio frames.
    case emptyAudio(path: String)
    /// Resampling the decoded audio to the wanted rate failed; `reason` is libsamplerate's message.
    case resampleFailed(path: String, reason: String)
    /// The requested frame duration does not give a whole, positive number of samples a frame.
    case invalidFrameDuration(path: String, frameMs: Int, format: AudioFormat)
    /// The speech detector found no voiced audio and the scenario gave no speech offsets.
    case noSpeechFound(path: String)
    /// The scenario's speech start/end override is out of range or inverted.
    case invalidSpeechOverride(path: String, reason: String)

    /// The file the error is about.
    package var path: String {
        switch self {
        case .fileNotFound(let path), .unreadable(let path, _), .emptyAudio(let path),
            .resampleFailed(let path, _), .invalidFrameDuration(let path, _, _),
            .noSpeechFound(let path), .invalidSpeechOverride(let path, _):
            return path
        }
    }

    package var description: String {
        switch self {
        case .fileNotFound(let path):
            return "audio file not found: \(path)"
        case .unreadable(let path, let reason):
            return "cannot read audio file \(path): \(Self.oneLine(reason))"
        case .emptyAudio(let path):
            return "audio file \(path) contains no audio"
        case .resampleFailed(let path, let reason):
            return "cannot resample audio file \(path): \(Self.oneLine(reason))"
        case .invalidFrameDuration(let path, let frameMs, let format):
            return "audio file \(path): a frame of \(frameMs) ms is not a whole number of samples in \(format)"
        case .noSpeechFound(let path):
            return "no speech found in audio file \(path) (set the speech start/end offsets in the scenario)"
        case .invalidSpeechOverride(let path, let reason):
            return "audio file \(path): invalid speech offset: \(Self.oneLine(reason))"
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
