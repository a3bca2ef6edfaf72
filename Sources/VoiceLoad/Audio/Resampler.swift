import CSampleRate

/// Band-limited sample-rate conversion through libsamplerate (windowed sinc).
///
/// Uses `src_simple` with `SRC_SINC_MEDIUM_QUALITY`, which keeps speech intact for ASR and VAD
/// where linear interpolation would alias (docs/metrics.md).
package enum Resampler {
    /// Returns `clip` converted to `toRateHz`; the same clip when the rates already match.
    ///
    /// The result holds exactly `⌊count × toRateHz / sampleRateHz⌋` samples (what
    /// libsamplerate produces), so the clip's duration is kept to within one output sample.
    package static func resample(_ clip: AudioClip, toRateHz: Int) throws(ResampleError) -> AudioClip {
        let fromRateHz = clip.sampleRateHz
        guard fromRateHz > 0, toRateHz > 0 else {
            throw .unsupportedRates(fromHz: fromRateHz, toHz: toRateHz)
        }
        if fromRateHz == toRateHz { return clip }
        let ratio = Double(toRateHz) / Double(fromRateHz)
        guard src_is_valid_ratio(ratio) != 0 else {
            throw .unsupportedRates(fromHz: fromRateHz, toHz: toRateHz)
        }
        let inputCount = clip.samples.count
        if inputCount == 0 { return AudioClip(samples: [], sampleRateHz: toRateHz) }

        let outputCount = inputCount * toRateHz / fromRateHz
        // Room for the converter's rounding of the output length; surplus is dropped below.
        let outputCapacity = outputCount + 64
        guard inputCount <= Int(Int32.max), outputCapacity <= Int(Int32.max) else {
            throw .clipTooLong(sampleCount: inputCount)
        }

        var input = [Float](repeating: 0, count: inputCount)
        clip.samples.withUnsafeBufferPointer { source in
            input.withUnsafeMutableBufferPointer { destination in
                src_short_to_float_array(source.baseAddress, destination.baseAddress, Int32(inputCount))
            }
        }

        var output = [Float](repeating: 0, count: outputCapacity)
        let (code, generated) = input.withUnsafeBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                var data = SRC_DATA()
                data.data_in = inputBuffer.baseAddress
                data.data_out = outputBuffer.baseAddress
                data.input_frames = inputCount
                data.output_frames = outputCapacity
                data.end_of_input = 1
                data.src_ratio = ratio
                let code = src_simple(&data, Int32(SRC_SINC_MEDIUM_QUALITY), 1)
                return (code, data.output_frames_gen)
            }
        }
        guard code == 0 else {
            throw .libsamplerate(code: code, message: String(cString: src_strerror(code)))
        }

        // Keep exactly `outputCount` samples: drop the surplus, or pad a short tail with silence.
        var samples = [Int16](repeating: 0, count: outputCount)
        let usable = min(generated, outputCount)
        if usable > 0 {
            output.withUnsafeBufferPointer { source in
                samples.withUnsafeMutableBufferPointer { destination in
                    src_float_to_short_array(source.baseAddress, destination.baseAddress, Int32(usable))
                }
            }
        }
        return AudioClip(samples: samples, sampleRateHz: toRateHz)
    }
}
