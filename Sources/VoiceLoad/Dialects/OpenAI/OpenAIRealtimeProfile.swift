/// Who serves the OpenAI Realtime event family (docs/dialects.md): OpenAI itself, with the GA
/// interface, or Azure Voice Live, which speaks the same client and server events with the
/// older audio and transcript names (`response.audio.delta`), a flat session object of its own
/// (`input_audio_format`, `azure_semantic_vad`, noise suppression, echo cancellation), an
/// `api-key` header and an `api-version` query. One profile value per dialect, so the codecs
/// stay one.
package enum OpenAIRealtimeProfile: Sendable, Hashable {
    case openAI
    case azureVoiceLive

    /// The dialect's command-line id.
    package var dialectID: String {
        switch self {
        case .openAI: return "openai-realtime"
        case .azureVoiceLive: return "azure-voice-live"
        }
    }

    /// What `vload dialects` shows as the provider API version.
    package var apiVersion: String {
        switch self {
        case .openAI:
            return
                "Realtime GA (openai 3.51 models); the beta interface, removed in 2026, is not spoken, but its audio and transcript event names are read for Azure's dated api-versions"
        case .azureVoiceLive:
            return "Voice Live api-version \(AzureVoiceLiveSession.apiVersion) (azure-ai-voicelive 1.3.1 models)"
        }
    }

    /// `Authorization: Bearer KEY` for OpenAI; Azure's resource key in `api-key` (an Entra
    /// token goes as `--header "Authorization: Bearer …"` with no `--token`).
    package var authentication: AuthenticationStyle {
        switch self {
        case .openAI: return .header(name: "Authorization", prefix: "Bearer ")
        case .azureVoiceLive: return .header(name: "api-key", prefix: "")
        }
    }

    /// The server events that carry agent audio and its transcript, as this service names them
    /// (the simulator sends these; the client reads both spellings).
    var audioDelta: String {
        self == .openAI ? OpenAIRealtimeEventName.outputAudioDelta : OpenAIRealtimeEventName.betaAudioDelta
    }
    var audioDone: String {
        self == .openAI ? OpenAIRealtimeEventName.outputAudioDone : OpenAIRealtimeEventName.betaAudioDone
    }
    var audioTranscriptDelta: String {
        self == .openAI ? OpenAIRealtimeEventName.outputAudioTranscriptDelta : OpenAIRealtimeEventName.betaAudioTranscriptDelta
    }
    var audioTranscriptDone: String {
        self == .openAI ? OpenAIRealtimeEventName.outputAudioTranscriptDone : OpenAIRealtimeEventName.betaAudioTranscriptDone
    }

    /// The `session` object of the client's `session.update`: the scenario's session over the
    /// profile's defaults, with the audio formats vload streams in.
    func sessionUpdate(parameters: [String: JSONValue], inputFormat: AudioFormat, outputFormat: AudioFormat) -> [String: JSONValue] {
        switch self {
        case .openAI:
            return OpenAIRealtimeSession.update(
                scenarioSession: OpenAIRealtimeSession.scenarioSession(parameters),
                inputFormat: inputFormat,
                outputFormat: outputFormat
            )
        case .azureVoiceLive:
            return AzureVoiceLiveSession.update(
                scenarioSession: AzureVoiceLiveSession.scenarioSession(parameters),
                inputFormat: inputFormat
            )
        }
    }
}
