import WSClient
import WSCore

/// The client side of Deepgram streaming speech-to-text, `/v1/listen` (docs/dialects.md):
/// raw audio in binary frames, configuration in the URL query, JSON results back, and no
/// agent audio at all.
///
/// Ready is the WebSocket open; the end of a user turn is an event (`speech_final`,
/// `UtteranceEnd`). The API key travels as `Authorization: Token KEY`.
package struct DeepgramSTTClientDialect: ClientDialect {
    package let id = "deepgram-stt"
    package var typesRead: [String] { DeepgramMessage.Name.listenTypesRead }
    package let apiVersion = "Listen v1 (/v1/listen; deepgram-sdk 7.16 models)"
    /// User audio format: PCM16 (`linear16`) 16 kHz by default; µ-law is sent as `mulaw`.
    package let inputFormat: AudioFormat
    /// Deepgram returns no audio; this is the input format, so durations stay meaningful.
    package var outputFormat: AudioFormat { inputFormat }
    package let readySignal = ReadySignal.onOpen
    package let turnEndSignal = TurnEndSignal.event
    /// `Authorization: Token <API_KEY>`: the literal `Token ` prefix, not `Bearer`.
    package let authentication = AuthenticationStyle.header(name: "Authorization", prefix: "Token ")
    /// `KeepAlive` every 5 s while no audio streams: Deepgram closes a stream idle for about 10 s.
    package let keepAlive: KeepAlivePolicy? = KeepAlivePolicy(everyMs: 5_000)
    /// `Finalize` flushes the transcript; its results carry `from_finalize`.
    package let reportsFinalizedResults = true
    /// Speech-to-text answers with transcripts, never audio: the endpoint ends the server's turn.
    package var repliesWithAudio: Bool { false }

    /// The standard codec, or one that streams another input format.
    package init(inputFormat: AudioFormat = .pcm16(16_000)) {
        self.inputFormat = inputFormat
    }

    /// A binary frame of the raw audio, shared by every connection.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }

    /// Deepgram STT keeps no per-connection state: every setting is in the URL.
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        DeepgramSTTClientCodec()
    }

    /// `base` with the audio format (`encoding`, `sample_rate`, `channels=1`) and vload's
    /// turn-taking defaults (`interim_results=true`, `endpointing=300`, `utterance_end_ms=1000`,
    /// `vad_events=true`) added where the URL has none; a session parameter of
    /// the same name replaces a default (`null` drops it), and other session parameters
    /// (`model`, `language`…) become query items too. See `DeepgramListenQuery`.
    package func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue]) -> WebSocketEndpoint {
        DeepgramListenQuery.endpoint(for: base, parameters: parameters, format: inputFormat)
    }
}
