import WSCore

/// The server side of Deepgram Flux (docs/dialects.md), as the agent simulator speaks it: it
/// listens to binary audio and answers with `TurnInfo` messages, never with speech.
package struct DeepgramFluxServerDialect: ServerDialect {
    package let id = "deepgram-flux"
    /// User audio format: PCM16 16 kHz by default.
    package let inputFormat: AudioFormat
    /// There is no agent audio; this is the input format.
    package var outputFormat: AudioFormat { inputFormat }
    /// There is no start message: the session starts on open, and `Connected` says it is ready.
    package let sessionStart = ServerSessionStart.onOpen
    /// Speech-to-text answers with `speechResult`s, not with speech.
    package var speaks: Bool { false }

    package init(inputFormat: AudioFormat = .pcm16(16_000)) {
        self.inputFormat = inputFormat
    }

    /// A binary frame of the raw audio (the simulator sends none, as `speaks` is false).
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }

    /// A codec that sends `EagerEndOfTurn` when the connection's query sets
    /// `eager_eot_threshold` (or a `Configure` sets it later).
    package func makeCodec(target: String) -> any ServerCodec {
        DeepgramFluxServerCodec(target: target)
    }
}
