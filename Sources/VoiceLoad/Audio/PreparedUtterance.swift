/// A user utterance ready to stream: one audio file decoded once, resampled to a dialect's
/// input format, encoded, and split into equal frames, with its speech span measured on the
/// audio as sent (docs/metrics.md).
///
/// Frame `k` (0-based) covers clip positions `[k·frameMs, (k+1)·frameMs)`; it is due at
/// `T_mic_open + (k+1)·frameMs` (docs/metrics.md, "The audio clock"). Instances are immutable and shared by every
/// virtual client.
package struct PreparedUtterance: Sendable {
    /// The wire format of `frames`.
    package let format: AudioFormat
    /// Length of every frame.
    package let frameMs: Int
    /// Encoded payloads, each exactly `frameMs` long; the last is padded with the format's silence byte.
    package let frames: [[UInt8]]
    /// Speech start/end inside the clip (detected, or the scenario's overrides).
    package let boundaries: SpeechBoundaries
    /// The file the audio came from.
    package let sourcePath: String
    /// Whether `boundaries` were both detected on this audio as sent (no scenario override, no
    /// span given, as a varied caller's clean truth is), so a dialect whose codec changes the
    /// audio further may find them again on what the agent hears (`FrameSet`).
    package let boundariesDetected: Bool

    /// Length of the streamed audio, padding included.
    package var durationMs: Int { frames.count * frameMs }

    /// Creates an utterance from frames that are already encoded and split.
    package init(
        format: AudioFormat,
        frameMs: Int,
        frames: [[UInt8]],
        boundaries: SpeechBoundaries,
        sourcePath: String,
        boundariesDetected: Bool = false
    ) {
        self.format = format
        self.frameMs = frameMs
        self.frames = frames
        self.boundaries = boundaries
        self.sourcePath = sourcePath
        self.boundariesDetected = boundariesDetected
    }

    /// Reads the audio file at `path` and prepares it for streaming in `format`.
    ///
    /// - Parameters:
    ///   - format: the dialect's input format (rate and encoding).
    ///   - frameMs: frame length; `format.sampleRateHz × frameMs` must be a multiple of 1000.
    ///   - detector: the energy VAD that finds the speech span.
    ///   - overrides: the scenario's speech start/end in ms; each given value replaces the
    ///     detected one. When nothing is voiced, a missing start defaults to 0 and a missing
    ///     end to the end of the audio, provided at least one override is given.
    /// - Throws: `AudioFileError` naming `path`: unreadable/empty file, bad frame length,
    ///   "no speech found" (nothing voiced, no overrides), or an out-of-range override.
    package static func prepare(
        path: String,
        format: AudioFormat,
        frameMs: Int,
        detector: SpeechDetector = .init(),
        overrides: (startMs: Int?, endMs: Int?) = (nil, nil)
    ) throws(AudioFileError) -> PreparedUtterance {
        try validateFraming(path: path, format: format, frameMs: frameMs)
        let clip = try WAVReader.read(path: path)
        return try prepare(
            clip: clip,
            sourcePath: path,
            format: format,
            frameMs: frameMs,
            detector: detector,
            overrides: overrides
        )
    }

    /// Prepares an already decoded clip; `sourcePath` names it in errors and reports.
    package static func prepare(
        clip: AudioClip,
        sourcePath: String,
        format: AudioFormat,
        frameMs: Int,
        detector: SpeechDetector = .init(),
        overrides: (startMs: Int?, endMs: Int?) = (nil, nil)
    ) throws(AudioFileError) -> PreparedUtterance {
        try validateFraming(path: sourcePath, format: format, frameMs: frameMs)
        let resampled: AudioClip
        do {
            resampled = try Resampler.resample(clip, toRateHz: format.sampleRateHz)
        } catch {
            throw .resampleFailed(path: sourcePath, reason: error.description)
        }
        let encoded = AudioEncoder.encode(resampled.samples, as: format)
        // Speech offsets are measured on the audio as sent (docs/metrics.md, "The audio clock").
        let asSent = AudioEncoder.decode(encoded, format: format)
        let detected = detector.boundaries(of: asSent, sampleRateHz: format.sampleRateHz)
        let audioEndUs = Int64(asSent.count) * 1_000_000 / Int64(format.sampleRateHz)
        let frames = split(encoded, format: format, frameMs: frameMs)
        let boundaries = try resolveBoundaries(
            path: sourcePath,
            detected: detected,
            overrides: overrides,
            audioEndUs: audioEndUs,
            paddedEndUs: Int64(frames.count * frameMs) * 1_000
        )
        return PreparedUtterance(
            format: format,
            frameMs: frameMs,
            frames: frames,
            boundaries: boundaries,
            sourcePath: sourcePath,
            boundariesDetected: detected != nil && overrides.startMs == nil && overrides.endMs == nil
        )
    }

    /// This utterance with its speech span found again by `detector` on `heard`, the clip as
    /// the agent hears it (PCM16 at the format's rate, on the clip's own timeline); unchanged
    /// when its span was not detected, or nothing is voiced in `heard`.
    package func redetected(on heard: [Int16], detector: SpeechDetector = .init()) -> PreparedUtterance {
        guard boundariesDetected, let found = detector.boundaries(of: heard, sampleRateHz: format.sampleRateHz) else { return self }
        return PreparedUtterance(
            format: format, frameMs: frameMs, frames: frames, boundaries: found, sourcePath: sourcePath, boundariesDetected: true)
    }

    /// One frame of the format's digital silence.
    package func silenceFrame() -> [UInt8] {
        format.silence(milliseconds: frameMs)
    }

    /// The 0-based index of the frame holding clip offset `containingUs`, clamped to the
    /// frames that exist (0 when there are none).
    ///
    /// The frame that carries the last speech sample (`T_us_end_sent`, docs/metrics.md) is
    /// `frameIndex(containingUs: boundaries.speechEndUs - 1)`.
    package func frameIndex(containingUs offsetUs: Int64) -> Int {
        guard !frames.isEmpty, offsetUs > 0 else { return 0 }
        let index = offsetUs / (Int64(frameMs) * 1_000)
        return Int(min(index, Int64(frames.count - 1)))
    }

    /// The frame that carries the last speech sample.
    package var lastSpeechFrameIndex: Int {
        frameIndex(containingUs: boundaries.speechEndUs - 1)
    }

    private static func validateFraming(
        path: String,
        format: AudioFormat,
        frameMs: Int
    ) throws(AudioFileError) {
        guard frameMs > 0, format.sampleRateHz > 0,
            (format.sampleRateHz * frameMs) % 1_000 == 0
        else {
            throw .invalidFrameDuration(path: path, frameMs: frameMs, format: format)
        }
    }

    /// Cuts `encoded` into frames of `frameMs`, padding the last one with silence.
    static func split(_ encoded: [UInt8], format: AudioFormat, frameMs: Int) -> [[UInt8]] {
        let frameBytes = format.byteCount(forMilliseconds: frameMs)
        var frames: [[UInt8]] = []
        frames.reserveCapacity((encoded.count + frameBytes - 1) / frameBytes)
        var start = 0
        while start < encoded.count {
            let end = min(start + frameBytes, encoded.count)
            var frame = Array(encoded[start..<end])
            if frame.count < frameBytes {
                frame.append(contentsOf: repeatElement(format.silenceByte, count: frameBytes - frame.count))
            }
            frames.append(frame)
            start = end
        }
        return frames
    }

    private static func resolveBoundaries(
        path: String,
        detected: SpeechBoundaries?,
        overrides: (startMs: Int?, endMs: Int?),
        audioEndUs: Int64,
        paddedEndUs: Int64
    ) throws(AudioFileError) -> SpeechBoundaries {
        if detected == nil && overrides.startMs == nil && overrides.endMs == nil {
            throw .noSpeechFound(path: path)
        }
        let startUs = overrides.startMs.map { Int64($0) * 1_000 } ?? detected?.speechStartUs ?? 0
        let endUs = overrides.endMs.map { Int64($0) * 1_000 } ?? detected?.speechEndUs ?? audioEndUs
        guard startUs >= 0 else {
            throw .invalidSpeechOverride(path: path, reason: "speech start \(startUs / 1_000) ms is negative")
        }
        guard endUs <= paddedEndUs else {
            throw .invalidSpeechOverride(
                path: path,
                reason: "speech end \(endUs / 1_000) ms is past the end of the audio (\(paddedEndUs / 1_000) ms)"
            )
        }
        guard startUs < endUs else {
            throw .invalidSpeechOverride(
                path: path,
                reason: "speech start \(startUs / 1_000) ms is not before speech end \(endUs / 1_000) ms"
            )
        }
        return SpeechBoundaries(speechStartUs: startUs, speechEndUs: endUs)
    }
}
