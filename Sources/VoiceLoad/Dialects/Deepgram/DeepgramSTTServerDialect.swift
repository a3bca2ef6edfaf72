import WSCore

/// The server side of Deepgram streaming speech-to-text (docs/dialects.md), as the agent
/// simulator speaks it: it listens to binary audio and answers with transcripts, never with
/// speech. There is no hello and no start message: the session starts on open.
package struct DeepgramSTTServerDialect: TranscribingServerDialect {
    package let id = "deepgram-stt"
    /// User audio format: PCM16 16 kHz by default.
    package let inputFormat: AudioFormat
    /// The `Results` prepared for the transcripts sent, shared by every connection's codec.
    private let resultsCache = DeepgramResultsCache()

    package init(inputFormat: AudioFormat = .pcm16(16_000)) {
        self.inputFormat = inputFormat
    }

    /// A codec that honours the connection's query: `interim_results=false` drops interim
    /// results, `vad_events=false` drops `SpeechStarted`, `endpointing=false` clears
    /// `speech_final`. Absent parameters count as enabled.
    package func makeCodec(target: String) -> any ServerCodec {
        DeepgramSTTServerCodec(target: target, inputFormat: inputFormat, resultsCache: resultsCache)
    }
}
