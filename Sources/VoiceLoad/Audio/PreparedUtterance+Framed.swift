extension PreparedUtterance {
    /// `clip`, already at `format`'s rate, encoded and framed with a speech span measured
    /// elsewhere: a varied caller's audio, whose truth is the clean clip's (docs/callers.md),
    /// not what a detector would find in the noisy mix. `frameMs` must suit `format` (as
    /// `prepare` checked it for the clean clip).
    package static func framed(
        _ clip: AudioClip,
        sourcePath: String,
        format: AudioFormat,
        frameMs: Int,
        boundaries: SpeechBoundaries
    ) -> PreparedUtterance {
        precondition(clip.sampleRateHz == format.sampleRateHz, "resample the clip to the format's rate first")
        let encoded = AudioEncoder.encode(clip.samples, as: format)
        return PreparedUtterance(
            format: format,
            frameMs: frameMs,
            frames: split(encoded, format: format, frameMs: frameMs),
            boundaries: boundaries,
            sourcePath: sourcePath
        )
    }
}
