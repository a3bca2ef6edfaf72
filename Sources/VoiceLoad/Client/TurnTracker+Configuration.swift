extension TurnTracker {
    /// How a session's turns are told apart and when agent audio counts as voiced.
    package struct Configuration: Sendable, Hashable {
        /// A gap in agent audio this long (with the playback cursor drained) ends an agent turn
        /// on dialects with no end-of-turn event, and separates agent turns.
        package var quietMs: Int64 = 500
        /// The level in dBFS at and above which an agent chunk is voiced (`AudioLevel`).
        package var voicedThresholdDbfs: Double = -40
        /// `voicedThresholdDbfs` as a level (0 … 1): 0.01 at −40 dBFS.
        package var voicedLevel: Float { Float(AudioLevel.amplitude(dbfs: voicedThresholdDbfs)) }
        package var turnEndSignal: TurnEndSignal = .event
        package var jitterBufferMs: Int64 = 0
        /// False for speech-to-text: the endpoint (final transcript) answers an utterance.
        package var repliesWithAudio = true
        /// The server may withdraw an eager end of turn (Flux with `eager_eot_threshold`, the
        /// dialect measures `eager_end_of_turn_ms`): each row counts its `turns_resumed`.
        package var countsTurnResumes = false

        package init() {}
    }
}
