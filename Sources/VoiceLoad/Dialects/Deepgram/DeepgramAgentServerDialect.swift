import WSCore

/// The server side of the Deepgram Voice Agent API (docs/dialects.md), as the agent
/// simulator speaks it: `Welcome` on open, the session starts with the client's `Settings`,
/// binary audio both ways.
package struct DeepgramAgentServerDialect: ServerDialect {
    package let id = "deepgram-agent"
    /// User audio format: PCM16 16 kHz by default (the API's default input).
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 24 kHz by default (what vload's `Settings` ask for).
    package let outputFormat: AudioFormat
    /// The session starts with the client's `Settings`.
    package let sessionStart = ServerSessionStart.onClientStart
    /// The simulator's function calls are `client_side`: answered with `FunctionCallResponse`.
    package let awaitsToolResults = true

    package init(inputFormat: AudioFormat = .pcm16(16_000), outputFormat: AudioFormat = .pcm16(24_000)) {
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
    }

    /// A binary frame of the raw audio, shared by every session.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }

    /// A codec that remembers the latency of the turn in progress for its `LatencyReport`.
    package func makeCodec(target: String) -> any ServerCodec {
        DeepgramAgentServerCodec()
    }
}
