import Dispatch
import Synchronization

/// The audio of a run whose callers vary (docs/callers.md), prepared before the run starts:
/// every clip the scenario speaks, resampled to the dialect's input rate and stretched once per
/// speaking rate the range can draw (rates are drawn to 0.01), with its speech span found in
/// each clean stretch as it would be sent; and the noise beds at the same rate. A caller's own
/// frames, its noise mixed in at its SNR and its gain applied, are made from these when the
/// caller is created (`frameSets(for:)`), off the event loops and never per frame.
package final class CallerAudio: Sendable {
    /// The ranges, with `bedDurationMs` set to the shortest bed's length.
    package let variation: CallerVariation
    let dialect: any ClientDialect
    let frameMs: Int
    /// The beds, by name, at the dialect's input rate.
    let beds: [String: AudioClip]
    /// By clip (`SayStep.audioKey`), by speaking rate in hundredths: the clean stretched clip.
    let stretches: [String: [Int: CleanStretch]]

    /// A clip at one speaking rate, before any noise: the truth every latency is measured from.
    struct CleanStretch: Sendable {
        var clip: AudioClip
        var speech: SpeechBoundaries
        var sourcePath: String
    }

    init(
        variation: CallerVariation,
        dialect: any ClientDialect,
        frameMs: Int,
        beds: [String: AudioClip],
        stretches: [String: [Int: CleanStretch]]
    ) {
        self.variation = variation
        self.dialect = dialect
        self.frameMs = frameMs
        self.beds = beds
        self.stretches = stretches
    }

    /// The speaking rates the range can draw, in hundredths.
    package static func rateKeys(_ range: ClosedRange<Double>) -> ClosedRange<Int> {
        key(range.lowerBound)...key(range.upperBound)
    }

    static func key(_ rate: Double) -> Int { Int((rate * 100).rounded()) }

    /// The bytes of audio held for the run (the stretches and the beds, 16-bit samples).
    package var preparedBytes: Int {
        let clips = stretches.values.flatMap(\.values).map(\.clip) + beds.values
        return clips.reduce(0) { $0 + $1.samples.count * 2 }
    }

    /// How many clean stretches were made (clips × rates).
    package var stretchCount: Int { stretches.values.reduce(0) { $0 + $1.count } }

    /// `noise babble|road|pink at 10–20 dB SNR · gain -6–6 dB · rate 0.8–1.2; 41 clean stretches prepared, 6.3 MB`.
    package var summary: String {
        "\(variation.summary); \(stretchCount) clean stretch\(stretchCount == 1 ? "" : "es") prepared, " + String(format: "%.1f MB", Double(preparedBytes) / 1_000_000)
    }

    /// Caller `voice`'s frames of every clip, by `audioKey`: the clean stretch at its rate, its
    /// noise mixed in over the clean speech span, its gain, encoded and framed for the dialect.
    /// The speech span stays the clean stretch's, wherever the mix looks silent.
    package func frameSets(for voice: CallerVoice) -> [String: FrameSet] {
        var sets: [String: FrameSet] = [:]
        let rate = Self.key(voice.speakingRate)
        for (audioKey, byRate) in stretches {
            guard let clean = byRate[rate] else { continue }
            let bed = voice.noise.flatMap { beds[$0.bed] }
            let clip = voice.voiced(clean.clip, speech: clean.speech, bed: bed)
            let utterance = PreparedUtterance.framed(
                clip,
                sourcePath: clean.sourcePath,
                format: dialect.inputFormat,
                frameMs: frameMs,
                boundaries: clean.speech
            )
            sets[audioKey] = FrameSet(utterance: utterance, dialect: dialect)
        }
        return sets
    }

    /// Reads the beds and the clips of `says`, and stretches every clip to every rate the
    /// range can draw, on all cores. Errors name the file, as a clip's do.
    package static func prepare(
        variation original: CallerVariation,
        says: [SayStep],
        dialect: any ClientDialect,
        frameMs: Int
    ) throws(AudioFileError) -> CallerAudio {
        let format = dialect.inputFormat
        var variation = original
        var beds: [String: AudioClip] = [:]
        for name in variation.noiseBeds {
            let path = variation.bedPaths[name] ?? name
            let bed = try resampled(try WAVReader.read(path: path), path: path, to: format)
            guard !bed.samples.isEmpty else { throw .emptyAudio(path: path) }
            beds[name] = bed
        }
        if let shortest = beds.values.map(\.durationMs).min() { variation.bedDurationMs = max(1, Int(shortest)) }
        var read: [(say: SayStep, clip: AudioClip)] = []
        for say in says {
            read.append((say, try resampled(try WAVReader.read(path: say.audioPath), path: say.audioPath, to: format)))
        }
        let clips = read
        let rates = Array(rateKeys(variation.speakingRate))
        let jobs = clips.indices.flatMap { clip in rates.map { (clip, $0) } }
        let results = Mutex<[Int: Result<CleanStretch, AudioFileError>]>([:])
        DispatchQueue.concurrentPerform(iterations: jobs.count) { job in
            let (index, rate) = jobs[job]
            let result = Result { () throws(AudioFileError) -> CleanStretch in
                try stretch(clips[index].clip, say: clips[index].say, rate: Double(rate) / 100, format: format, frameMs: frameMs)
            }
            results.withLock { $0[job] = result }
        }
        var stretches: [String: [Int: CleanStretch]] = [:]
        let done = results.withLock { $0 }
        for (job, (index, rate)) in jobs.enumerated() {
            guard let result = done[job] else { continue }
            stretches[clips[index].say.audioKey, default: [:]][rate] = try result.get()
        }
        return CallerAudio(variation: variation, dialect: dialect, frameMs: frameMs, beds: beds, stretches: stretches)
    }

    /// `clip` (at the input rate) at `rate`, and its speech span as it would be sent: detected in
    /// the clean stretch, or the scenario's `speech_start_ms`/`speech_end_ms` moved by the stretch.
    private static func stretch(
        _ clip: AudioClip,
        say: SayStep,
        rate: Double,
        format: AudioFormat,
        frameMs: Int
    ) throws(AudioFileError) -> CleanStretch {
        let stretched = TimeStretch.stretch(clip, rate: rate)
        let moved = { (ms: Int?) in ms.map { Int((Double($0) / rate).rounded()) } }
        let clean = try PreparedUtterance.prepare(
            clip: stretched,
            sourcePath: say.audioPath,
            format: format,
            frameMs: frameMs,
            overrides: (moved(say.speechStartMs), moved(say.speechEndMs))
        )
        return CleanStretch(clip: stretched, speech: clean.boundaries, sourcePath: say.audioPath)
    }

    private static func resampled(_ clip: AudioClip, path: String, to format: AudioFormat) throws(AudioFileError) -> AudioClip {
        do {
            return try Resampler.resample(clip, toRateHz: format.sampleRateHz)
        } catch {
            throw .resampleFailed(path: path, reason: error.description)
        }
    }
}
