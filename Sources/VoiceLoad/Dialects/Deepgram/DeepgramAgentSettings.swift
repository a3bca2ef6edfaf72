/// The Deepgram Voice Agent `Settings` message vload sends after `Welcome` (docs/dialects.md): the user's own
/// document, opaque to vload, with only the audio formats set by vload
/// (`audio.input` and `audio.output`).
enum DeepgramAgentSettings {
    /// The session parameter that holds the user's `Settings` object.
    static let parameterName = "settings"

    /// The agent used when the session parameters hold no `settings` object, so a run works
    /// with no configuration. The language goes in the listen provider (the SDK's models mark
    /// `agent.language` deprecated).
    static let defaultAgent: JSONValue = .object([
        "listen": .object([
            "provider": .object([
                "type": .string("deepgram"), "model": .string("nova-3"), "language": .string("en"),
            ])
        ]),
        "think": .object([
            "provider": .object(["type": .string("open_ai"), "model": .string("gpt-4o-mini")]),
            "prompt": .string("You are a helpful voice assistant. Keep your answers short."),
        ]),
        "speak": .object(["provider": .object(["type": .string("deepgram"), "model": .string("aura-2-thalia-en")])]),
    ])

    /// The `Settings` object: `parameters["settings"]` when it is an object (otherwise a
    /// document with `defaultAgent`), with `type` set to `Settings`, `audio.input` replaced by
    /// the input format and `audio.output` by the output format (raw, `container: none`).
    /// Every other member, `audio`'s other members included, is kept as the user wrote it.
    static func object(
        parameters: [String: JSONValue],
        inputFormat: AudioFormat,
        outputFormat: AudioFormat
    ) -> [String: JSONValue] {
        var settings: [String: JSONValue]
        if case .object(let user)? = parameters[parameterName] {
            settings = user
        } else {
            settings = ["agent": defaultAgent]
        }
        settings["type"] = .string(DeepgramMessage.Name.settings)
        var audio: [String: JSONValue] = [:]
        if case .object(let userAudio)? = settings["audio"] { audio = userAudio }
        audio["input"] = .object([
            "encoding": .string(DeepgramMessage.encodingName(of: inputFormat)),
            "sample_rate": .number(Double(inputFormat.sampleRateHz)),
        ])
        audio["output"] = .object([
            "encoding": .string(DeepgramMessage.encodingName(of: outputFormat)),
            "sample_rate": .number(Double(outputFormat.sampleRateHz)),
            "container": .string("none"),
        ])
        settings["audio"] = .object(audio)
        return settings
    }

    /// The compact JSON text of `object(…)`; numbers JSON cannot carry become `null`.
    static func text(
        parameters: [String: JSONValue],
        inputFormat: AudioFormat,
        outputFormat: AudioFormat
    ) -> String {
        let settings = object(parameters: parameters, inputFormat: inputFormat, outputFormat: outputFormat)
        return JSONFrame.text(settings)
    }
}
