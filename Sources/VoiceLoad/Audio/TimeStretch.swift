import CRubberBand

/// A clip spoken faster or slower without a change of pitch (a caller's speaking rate,
/// docs/callers.md), through the Rubber Band library's offline stretcher with its finer (R3)
/// engine, which studies the whole clip first and then stretches it to the exact length asked.
///
/// Rubber Band and not SoundTouch: Debian's SoundTouch is built with `-ffast-math`, and loading
/// it sets the whole process to flush subnormal numbers to zero (vload's JSON reader then read
/// `5e-324` as 0). The result has `⌊count ÷ rate⌋` samples, rounded to the nearest sample and
/// saturating at full scale.
package enum TimeStretch {
    /// Accepted speaking rates.
    package static let rates: ClosedRange<Double> = 0.5...2.0

    /// `clip` at `rate` times its speed (1.2 is 20 % faster and shorter). The same clip at 1.
    package static func stretch(_ clip: AudioClip, rate: Double) -> AudioClip {
        precondition(rates.contains(rate), "speaking rate \(rate) outside \(rates)")
        guard rate != 1, !clip.samples.isEmpty else { return clip }
        let inputCount = clip.samples.count
        let outputCount = Int(Double(inputCount) / rate)
        let options = Int32(bitPattern: UInt32(RubberBandOptionProcessOffline.rawValue | RubberBandOptionEngineFiner.rawValue))
        guard let stretcher = rubberband_new(UInt32(clip.sampleRateHz), 1, options, 1 / rate, 1) else { return clip }
        defer { rubberband_delete(stretcher) }
        rubberband_set_expected_input_duration(stretcher, UInt32(inputCount))
        let input = clip.samples.map { Float($0) / 32_768 }
        let blockSamples = 4_096
        // Offline: the whole clip is studied, then processed; the output is retrieved as it comes.
        forEachBlock(of: input, samples: blockSamples) { channel, count, final in
            rubberband_study(stretcher, channel, count, final)
        }
        var output: [Float] = []
        output.reserveCapacity(outputCount + blockSamples)
        var block = [Float](repeating: 0, count: blockSamples)
        func retrieve() {
            while case let available = Int(rubberband_available(stretcher)), available > 0 {
                // No more than is available: asking for more makes Rubber Band print a warning
                // to stderr (seen at rates 0.5–0.7).
                let got = block.withUnsafeMutableBufferPointer { buffer -> Int in
                    var channel: UnsafeMutablePointer<Float>? = buffer.baseAddress
                    return Int(rubberband_retrieve(stretcher, &channel, UInt32(min(buffer.count, available))))
                }
                if got == 0 { return }
                output.append(contentsOf: block[0..<got])
            }
        }
        forEachBlock(of: input, samples: blockSamples) { channel, count, final in
            rubberband_process(stretcher, channel, count, final)
            retrieve()
        }
        retrieve()
        var samples = output.prefix(outputCount).map(WAVReader.pcm16)
        if samples.count < outputCount { samples.append(contentsOf: repeatElement(0, count: outputCount - samples.count)) }
        return AudioClip(samples: samples, sampleRateHz: clip.sampleRateHz)
    }

    /// Calls `body` with each block of `input` as Rubber Band takes it: a pointer to the one
    /// channel's pointer, the block's length, and 1 for the last block.
    private static func forEachBlock(
        of input: [Float],
        samples blockSamples: Int,
        _ body: (UnsafePointer<UnsafePointer<Float>?>, UInt32, Int32) -> Void
    ) {
        input.withUnsafeBufferPointer { samples in
            var start = 0
            while start < samples.count {
                let count = min(blockSamples, samples.count - start)
                var channel: UnsafePointer<Float>? = samples.baseAddress! + start
                body(&channel, UInt32(count), start + count == samples.count ? 1 : 0)
                start += count
            }
        }
    }
}
