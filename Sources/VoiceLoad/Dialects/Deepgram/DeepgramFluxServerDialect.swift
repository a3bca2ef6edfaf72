import WSCore

/// The server side of Deepgram Flux (docs/dialects.md), as the agent simulator speaks it: it
/// listens to binary audio and answers with `TurnInfo` messages, never with speech.
/// There is no start message: the session starts on open, and `Connected` says it is ready.
package struct DeepgramFluxServerDialect: TranscribingServerDialect {
    package let id = "deepgram-flux"
    /// User audio format: PCM16 16 kHz by default.
    package let inputFormat: AudioFormat

    package init(inputFormat: AudioFormat = .pcm16(16_000)) {
        self.inputFormat = inputFormat
    }

    /// A codec that sends `EagerEndOfTurn` when the connection's query sets
    /// `eager_eot_threshold` (or a `Configure` sets it later).
    package func makeCodec(target: String) -> any ServerCodec {
        DeepgramFluxServerCodec(target: target)
    }
}
