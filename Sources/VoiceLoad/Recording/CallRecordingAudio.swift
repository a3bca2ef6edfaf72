import WSCore

/// A recorded call as stereo 16-bit audio on one timeline from its connect (docs/recordings.md):
/// left the caller's microphone as sent (its clips where they began, silence between them),
/// right the agent's audio where the caller's playback played it (stalls silent, cut where a
/// flush dropped it). Both at `sampleRateHz`, the higher of the two sides' rates; a side at
/// another rate is resampled whole (libsamplerate), once, after the call.
package struct CallRecordingAudio: Sendable {
    package var sampleRateHz: Int
    package var left: [Int16]
    package var right: [Int16]

    /// The rate a call is written at: the highest of its clips' and agent chunks' rates (16 kHz
    /// when it has neither).
    package static func sampleRateHz(of call: FinishedCall) -> Int {
        let clipRates = call.recording.clips.map(\.frames.utterance.format.sampleRateHz)
        // A dialect's agent audio keeps one format: each attempt's first chunk tells it.
        let agentRates = call.recording.agentAudio.compactMap { $0.audioFormat?.sampleRateHz }
        return (clipRates + agentRates).max() ?? 16_000
    }

    /// Samples the call lasts at `sampleRateHz`: from its connect to its end.
    package static func frameCount(of call: FinishedCall, sampleRateHz: Int) -> Int {
        Self.samples(ofUs: call.durationUs, rateHz: sampleRateHz)
    }

    /// The size of the call's WAV file in bytes (header and samples).
    package static func wavBytes(of call: FinishedCall) -> Int {
        StereoWAV.headerBytes + frameCount(of: call, sampleRateHz: sampleRateHz(of: call)) * 4
    }

    package init(_ call: FinishedCall) {
        let rate = Self.sampleRateHz(of: call)
        let count = Self.frameCount(of: call, sampleRateHz: rate)
        sampleRateHz = rate
        left = Self.microphone(of: call, count: count, rateHz: rate)
        right = Self.agent(of: call, count: count, rateHz: rate)
    }

    /// The caller's clips, each from its start to its end, the next clip's start or the next
    /// stop of the microphone, whichever comes first.
    private static func microphone(of call: FinishedCall, count: Int, rateHz: Int) -> [Int16] {
        var tracks = Tracks(count: count, rateHz: rateHz)
        let clips = call.recording.clips
        for (index, clip) in clips.enumerated() {
            let format = clip.frames.utterance.format
            let samples = clip.frames.utterance.frames.flatMap { AudioEncoder.decode($0, format: format) }
            var endsAt = clip.startsAt.advanced(byMicroseconds: Int64(samples.count) * 1_000_000 / Int64(format.sampleRateHz))
            if index + 1 < clips.count { endsAt = min(endsAt, clips[index + 1].startsAt) }
            if let stop = call.recording.microphoneStops.first(where: { $0 >= clip.startsAt }) { endsAt = min(endsAt, stop) }
            tracks.place(
                samples,
                rateHz: format.sampleRateHz,
                fromUs: clip.startsAt.microseconds(since: call.connectAt),
                untilUs: endsAt.microseconds(since: call.connectAt)
            )
        }
        return tracks.mixed()
    }

    /// The agent's chunks where they played, each cut at a flush that dropped it.
    private static func agent(of call: FinishedCall, count: Int, rateHz: Int) -> [Int16] {
        var tracks = Tracks(count: count, rateHz: rateHz)
        for capture in call.recording.agentAudio {
            for (item, bytes, format) in capture.playedAudio() {
                guard let end = capture.audibleEnd(of: item) else { continue }
                let samples = AudioEncoder.decode(bytes, format: format)
                tracks.place(
                    samples,
                    rateHz: format.sampleRateHz,
                    fromUs: item.startsAt.microseconds(since: call.connectAt),
                    untilUs: end.microseconds(since: call.connectAt)
                )
            }
        }
        return tracks.mixed()
    }

    static func samples(ofUs us: Int64, rateHz: Int) -> Int {
        Int((us * Int64(rateHz) + 500_000) / 1_000_000)
    }

    /// One side's audio, a buffer per source rate until `mixed()` brings them to one.
    private struct Tracks {
        let count: Int
        let rateHz: Int
        private let durationUs: Int64
        private var byRate: [Int: [Int16]] = [:]

        init(count: Int, rateHz: Int) {
            self.count = count
            self.rateHz = rateHz
            self.durationUs = Int64(count) * 1_000_000 / Int64(rateHz)
        }

        /// Writes `samples` (at `rateHz`) from `fromUs` on, up to `untilUs` and the call's end.
        mutating func place(_ samples: [Int16], rateHz: Int, fromUs: Int64, untilUs: Int64) {
            guard fromUs >= 0, untilUs > fromUs else { return }
            // Taken out of the dictionary while written, so that it is not copied.
            var buffer =
                byRate.removeValue(forKey: rateHz)
                ?? [Int16](repeating: 0, count: CallRecordingAudio.samples(ofUs: durationUs, rateHz: rateHz))
            let start = CallRecordingAudio.samples(ofUs: fromUs, rateHz: rateHz)
            let end = min(buffer.count, CallRecordingAudio.samples(ofUs: untilUs, rateHz: rateHz), start + samples.count)
            if start < end {
                for index in start..<end { buffer[index] = samples[index - start] }
            }
            byRate[rateHz] = buffer
        }

        /// Every buffer at the call's rate, summed (saturating), exactly `count` samples long.
        func mixed() -> [Int16] {
            var result = [Int16](repeating: 0, count: count)
            for (sourceRate, buffer) in byRate {
                let converted =
                    (try? Resampler.resample(AudioClip(samples: buffer, sampleRateHz: sourceRate), toRateHz: rateHz))?.samples ?? []
                for index in 0..<min(count, converted.count) {
                    result[index] = Int16(clamping: Int32(result[index]) + Int32(converted[index]))
                }
            }
            return result
        }
    }
}
