/// The session configuration of the Azure Voice Live dialect (docs/dialects.md): the flat
/// session object of the azure-ai-voicelive SDK's `RequestSession` (`input_audio_format`,
/// `input_audio_sampling_rate`, `turn_detection`, `input_audio_noise_reduction`,
/// `input_audio_echo_cancellation`, …), not OpenAI's GA `audio.input` nesting.
package enum AzureVoiceLiveSession {
    /// The api-version vload asks for when the URL names none: the SDK's default in 1.3.1.
    static let apiVersion = "2026-07-15"
    /// Voice Live takes PCM16 input at these rates (`input_audio_sampling_rate`); its `pcm16`
    /// output is 24 kHz.
    static let inputRatesHz = [16_000, 24_000]

    /// vload's defaults: audio answers, Azure's semantic turn detection with its end-of-utterance
    /// model, and input transcription so user transcripts can be timed. Noise suppression and
    /// echo cancellation stay off unless the scenario's session turns them on
    /// (`input_audio_noise_reduction: {type: azure_deep_noise_suppression}`,
    /// `input_audio_echo_cancellation: {type: server_echo_cancellation}`): vload's caller is a
    /// clean recording, and what the service does to it is the scenario's choice.
    static func defaults(inputFormat: AudioFormat) -> [String: JSONValue] {
        [
            "modalities": .array([.string("text"), .string("audio")]),
            "input_audio_format": .string("pcm16"),
            "input_audio_sampling_rate": .int(inputFormat.sampleRateHz),
            "output_audio_format": .string("pcm16"),
            "turn_detection": .object([
                "type": .string("azure_semantic_vad"),
                "end_of_utterance_detection": .object(["model": .string("semantic_detection_v1")]),
            ]),
            "input_audio_transcription": .object(["model": .string("azure-speech")]),
        ]
    }

    /// The session fields a scenario's `session:` block may hold directly: the SDK's
    /// `RequestSession` members. Others belong to other dialects and stay out.
    static let sessionFieldNames: Set<String> = [
        "model", "modalities", "animation", "voice", "instructions", "input_audio_sampling_rate", "input_audio_format",
        "output_audio_format", "turn_detection", "input_audio_noise_reduction", "input_audio_echo_cancellation", "avatar",
        "input_audio_transcription", "output_audio_timestamp_types", "tools", "tool_choice", "parallel_tool_calls", "temperature",
        "max_response_output_tokens", "reasoning_effort", "interim_response", "include", "metadata",
    ]

    /// The session object a scenario asks for: its Voice Live session fields, overlaid with its
    /// nested `session` object (`session: {session: {...}}`).
    static func scenarioSession(_ parameters: [String: JSONValue]) -> [String: JSONValue] {
        var session = parameters.filter { sessionFieldNames.contains($0.key) }
        if case .object(let nested)? = parameters["session"] { session = OpenAIRealtimeSession.merging(session, with: nested) }
        return session
    }

    /// The `session` of vload's `session.update`: the defaults overlaid with the scenario's
    /// session (which wins, `"turn_detection": null` included: manual turns), then the input
    /// format vload streams in, which nothing overrides.
    static func update(scenarioSession: [String: JSONValue], inputFormat: AudioFormat) -> [String: JSONValue] {
        var session = OpenAIRealtimeSession.merging(defaults(inputFormat: inputFormat), with: scenarioSession)
        session["input_audio_format"] = .string("pcm16")
        session["input_audio_sampling_rate"] = .int(inputFormat.sampleRateHz)
        session["output_audio_format"] = .string("pcm16")
        return session
    }

    /// The input format a scenario's session asks for: PCM16 at `input_audio_sampling_rate`
    /// (24 kHz when absent); a one-line reason for anything vload does not stream to Voice Live.
    static func inputFormat(_ session: [String: JSONValue]) throws(InputError) -> AudioFormat {
        for key in ["input_audio_format", "output_audio_format"] {
            if let value = session[key], value != .string("pcm16") {
                throw InputError("azure-voice-live session \(key) must be \"pcm16\" (vload streams PCM16 to Voice Live)")
            }
        }
        guard let rate = session["input_audio_sampling_rate"] else { return .pcm16(24_000) }
        guard let hz = rate.doubleValue, inputRatesHz.contains(Int(hz)), Double(Int(hz)) == hz else {
            throw InputError("azure-voice-live session input_audio_sampling_rate must be 16000 or 24000")
        }
        return .pcm16(Int(hz))
    }
}
