/// Why `Resampler` could not change a clip's sample rate.
package enum ResampleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A source or target rate is not positive, or their ratio is outside libsamplerate's 1/256 … 256.
    case unsupportedRates(fromHz: Int, toHz: Int)
    /// The clip has more samples than libsamplerate can take in one call.
    case clipTooLong(sampleCount: Int)
    /// libsamplerate reported an error; `message` is its `src_strerror` text.
    case libsamplerate(code: Int32, message: String)

    package var description: String {
        switch self {
        case .unsupportedRates(let fromHz, let toHz):
            return "cannot resample from \(fromHz) Hz to \(toHz) Hz"
        case .clipTooLong(let sampleCount):
            return "clip of \(sampleCount) samples is too long to resample"
        case .libsamplerate(let code, let message):
            return "libsamplerate error \(code): \(message)"
        }
    }
}
