import COpus

/// A libopus call that failed, or a clip that could not be brought to Opus's 48 kHz.
package enum OpusError: Error, Hashable, CustomStringConvertible {
    /// `function` returned the negative libopus error `code`.
    case libopus(function: String, code: Int32)
    /// A frame handed to the encoder that is not `OpusClip.frameSamples` long.
    case frameLength(sampleCount: Int)
    /// An RTP payload with no Opus packet in it.
    case emptyPacket
    /// The clip's rate could not be converted to 48 kHz.
    case resampleFailed(reason: String)

    package var description: String {
        switch self {
        case .libopus(let function, let code):
            return "\(function) failed: \(String(cString: opus_strerror(code))) (\(code))"
        case .frameLength(let sampleCount):
            return "an Opus frame must be \(OpusClip.frameSamples) samples at 48 kHz, got \(sampleCount)"
        case .emptyPacket:
            return "an empty Opus packet"
        case .resampleFailed(let reason):
            return "cannot resample to 48 kHz for Opus: \(reason)"
        }
    }
}
