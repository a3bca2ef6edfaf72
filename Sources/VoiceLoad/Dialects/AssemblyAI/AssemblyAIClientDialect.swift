import WSClient
import WSCore

/// The client side of AssemblyAI Universal-Streaming v3, `/v3/ws` (docs/dialects.md): raw PCM
/// in ~50 ms binary frames, configuration in the URL query, and `Turn` messages back whose
/// `end_of_turn` ends the user's turn (`end_of_turn_ms`).
///
/// Ready is the server's `Begin`. The API key travels as `Authorization: KEY` (no prefix).
package struct AssemblyAIClientDialect: ClientDialect {
    package let id = "assemblyai-v3"
    package var typesRead: [String] { AssemblyAIMessage.Name.typesRead }
    package let apiVersion = "Universal-Streaming v3 (/v3/ws; assemblyai 1.8 models)"
    /// User audio format: PCM16 16 kHz by default; µ-law is sent as `pcm_mulaw`.
    package let inputFormat: AudioFormat
    /// AssemblyAI returns no audio; this is the input format, so durations stay meaningful.
    package var outputFormat: AudioFormat { inputFormat }
    package let readySignal = ReadySignal.event
    package let turnEndSignal = TurnEndSignal.event
    /// `Authorization: <API_KEY>`, the key alone, as the SDK sends it.
    package let authentication = AuthenticationStyle.header(name: "Authorization", prefix: "")
    /// AssemblyAI takes 50 ms chunks (50–1000 ms are accepted).
    package var defaultFrameMs: Int { 50 }
    /// `ForceEndpoint` ends the turn at once.
    package var repliesWithAudio: Bool { false }

    package init(inputFormat: AudioFormat = .pcm16(16_000)) {
        self.inputFormat = inputFormat
    }

    /// Ready, the result latencies, the user transcripts and `end_of_turn_ms`.
    package var measures: Set<MetricName> {
        MetricName.core.union([
            .readyMs, .sttInterimLatencyMs, .sttFinalLatencyMs, .userTranscriptFirstPartialMs, .userTranscriptFinalMs, .endOfTurnMs,
        ])
    }

    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }

    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        AssemblyAIClientCodec()
    }

    /// `base` with `sample_rate`, `encoding` and `speech_model` (required by the service;
    /// `universal-streaming-english`) added where the URL has none; a session parameter of the
    /// same name replaces a default, and other session parameters (`format_turns`,
    /// `end_of_turn_confidence_threshold`, `keyterms_prompt`…) become query items too: strings
    /// as they are, booleans and numbers as JSON writes them, arrays and objects as JSON text
    /// (the SDK's encoding); `null` drops one.
    package func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue]) -> WebSocketEndpoint {
        let defaults = [
            ("sample_rate", String(inputFormat.sampleRateHz)), ("encoding", AssemblyAIMessage.encodingName(of: inputFormat)),
            ("speech_model", AssemblyAIMessage.defaultSpeechModel),
        ]
        var endpoint = base
        for (name, value) in defaults where base.queryValue(named: name) == nil {
            guard let item = parameters[name].map(Self.queryValue) ?? value else { continue }
            endpoint = endpoint.addingQueryItem(name: name, value: item)
        }
        let defaultNames = Set(defaults.map(\.0))
        for name in parameters.keys.sorted() where !defaultNames.contains(name) && base.queryValue(named: name) == nil {
            if let item = Self.queryValue(parameters[name] ?? .null) { endpoint = endpoint.addingQueryItem(name: name, value: item) }
        }
        return endpoint
    }

    /// One session parameter as a query value; nil for `null`.
    static func queryValue(_ value: JSONValue) -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text
        case .bool, .integer, .number, .array, .object: return JSONText.text(value)
        }
    }
}
