import WSCore

/// The server side of AssemblyAI Universal-Streaming v3 (docs/dialects.md), as the agent
/// simulator speaks it: binary audio in, `Turn` messages out, never speech.
package struct AssemblyAIServerDialect: ServerDialect {
    package let id = "assemblyai-v3"
    package let inputFormat: AudioFormat
    package var outputFormat: AudioFormat { inputFormat }
    /// No start message: the session starts on open, and `Begin` says it is ready.
    package let sessionStart = ServerSessionStart.onOpen
    package var speaks: Bool { false }

    package init(inputFormat: AudioFormat = .pcm16(16_000)) {
        self.inputFormat = inputFormat
    }

    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }

    /// A codec that formats ended turns when the connection's query sets `format_turns=true`.
    package func makeCodec(target: String) -> any ServerCodec {
        AssemblyAIServerCodec(target: target, inputFormat: inputFormat)
    }
}
