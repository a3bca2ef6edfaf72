import WSCore

/// The client side of the Deepgram Voice Agent API, `/v1/agent/converse` (docs/dialects.md):
/// binary audio both ways, JSON events in text frames, readiness on `SettingsApplied`, and
/// the end of a turn on `AgentAudioDone`.
///
/// The client sends nothing before `Welcome`; its codec answers `Welcome` with `Settings`.
/// The API key travels as `Authorization: Token KEY`.
package struct DeepgramAgentClientDialect: ClientDialect {
    package let id = "deepgram-agent"
    package var typesRead: [String] { DeepgramMessage.Name.agentTypesRead }
    package let apiVersion = "Voice Agent v1 (/v1/agent/converse; deepgram-sdk 7.16 models)"
    /// User audio format: PCM16 (`linear16`) 16 kHz by default, announced in `audio.input`.
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 24 kHz by default, requested in `audio.output`.
    package let outputFormat: AudioFormat
    package let readySignal = ReadySignal.event
    package let turnEndSignal = TurnEndSignal.event
    /// `Authorization: Token <API_KEY>`.
    package let authentication = AuthenticationStyle.header(name: "Authorization", prefix: "Token ")
    /// `KeepAlive` every 5 s while no audio streams: Deepgram closes a stream idle for about 10 s.
    package let keepAlive: KeepAlivePolicy? = KeepAlivePolicy(everyMs: 5_000)
    /// Also the final user transcript (`ConversationText`) and what the server reports of its own
    /// latency (`server_*_latency_ms`, docs/metrics.md), kept apart from the client-measured figures.
    package var measures: Set<MetricName> {
        MetricName.core.union([.readyMs, .startedMs, .userTranscriptFinalMs]).union(MetricName.audioReply)
            .union([.serverTotalLatencyMs, .serverTtsLatencyMs, .serverTttLatencyMs])
    }

    /// The standard codec, or one that asks for other audio formats.
    package init(inputFormat: AudioFormat = .pcm16(16_000), outputFormat: AudioFormat = .pcm16(24_000)) {
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
    }

    /// A binary frame of the raw audio, shared by every connection.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }

    /// A codec holding the `Settings` text for this session, built once from
    /// `parameters["settings"]` (see `DeepgramAgentSettings`).
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        DeepgramAgentClientCodec(
            inputFormat: inputFormat,
            outputFormat: outputFormat,
            settingsText: DeepgramAgentSettings.text(
                parameters: parameters,
                inputFormat: inputFormat,
                outputFormat: outputFormat
            )
        )
    }
}
