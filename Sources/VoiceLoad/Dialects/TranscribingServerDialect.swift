import WSCore

/// The server side of a speech-to-text dialect that takes the user's audio raw in binary frames
/// and answers with transcripts, never speech (Deepgram STT and Flux, AssemblyAI v3): the session
/// starts on open, there is no agent audio (the output format is the input's, so durations stay
/// meaningful), and a prepared chunk is its raw bytes in a binary frame.
package protocol TranscribingServerDialect: ServerDialect {}

extension TranscribingServerDialect {
    package var outputFormat: AudioFormat { inputFormat }
    package var sessionStart: ServerSessionStart { .onOpen }
    package var speaks: Bool { false }

    /// A binary frame of the raw audio (the simulator sends none, as `speaks` is false).
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }
}
