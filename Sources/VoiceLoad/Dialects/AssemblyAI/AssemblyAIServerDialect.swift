import WSCore

/// The server side of AssemblyAI Universal-Streaming v3 (docs/dialects.md), as the agent
/// simulator speaks it: binary audio in, `Turn` messages out, never speech.
/// No start message: the session starts on open, and `Begin` says it is ready.
package struct AssemblyAIServerDialect: TranscribingServerDialect {
    package let id = "assemblyai-v3"
    package let inputFormat: AudioFormat

    package init(inputFormat: AudioFormat = .pcm16(16_000)) {
        self.inputFormat = inputFormat
    }

    /// A codec that formats ended turns when the connection's query sets `format_turns=true`.
    package func makeCodec(target: String) -> any ServerCodec {
        AssemblyAIServerCodec(target: target, inputFormat: inputFormat)
    }
}
