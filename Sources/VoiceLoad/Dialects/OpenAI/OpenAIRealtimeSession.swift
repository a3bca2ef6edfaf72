/// The GA session configuration of the OpenAI Realtime dialect (docs/dialects.md):
/// what vload sends in `session.update`, and what the simulator reports in `session.created`
/// and `session.updated`.
package enum OpenAIRealtimeSession {
    /// The input transcription model vload asks for, so user transcripts can be timed.
    static let defaultTranscriptionModel = "gpt-4o-mini-transcribe"

    /// The GA `format` object of an audio format: PCM16 is `{"type":"audio/pcm","rate":R}`,
    /// µ-law is `{"type":"audio/pcmu"}`, A-law `{"type":"audio/pcma"}`.
    static func formatObject(_ format: AudioFormat) -> JSONValue {
        switch format.encoding {
        case .pcm16: return .object(["type": .string("audio/pcm"), "rate": .number(Double(format.sampleRateHz))])
        case .mulaw: return .object(["type": .string("audio/pcmu")])
        case .alaw: return .object(["type": .string("audio/pcma")])
        }
    }

    /// vload's defaults: a GA realtime session that answers in audio, with server VAD and
    /// input transcription, in the given audio formats.
    static func defaults(inputFormat: AudioFormat, outputFormat: AudioFormat) -> [String: JSONValue] {
        [
            "type": .string("realtime"),
            "output_modalities": .array([.string("audio")]),
            "audio": .object([
                "input": .object([
                    "format": formatObject(inputFormat),
                    "transcription": .object(["model": .string(defaultTranscriptionModel)]),
                    "turn_detection": .object(["type": .string("server_vad")]),
                ]),
                "output": .object(["format": formatObject(outputFormat)]),
            ]),
        ]
    }

    /// The `session` object of vload's `session.update`: the defaults, overlaid member by member
    /// with the scenario's `session` object (which wins everywhere, `null` included, so
    /// `"turn_detection": null` selects manual turns), then the audio formats vload streams in,
    /// which nothing overrides.
    static func update(
        scenarioSession: [String: JSONValue],
        inputFormat: AudioFormat,
        outputFormat: AudioFormat
    ) -> [String: JSONValue] {
        var session = merging(defaults(inputFormat: inputFormat, outputFormat: outputFormat), with: scenarioSession)
        session = setting(["audio", "input", "format"], to: formatObject(inputFormat), in: session)
        session = setting(["audio", "output", "format"], to: formatObject(outputFormat), in: session)
        return session
    }

    /// The GA session fields a scenario's `session:` block may hold directly (the openai SDK's
    /// `RealtimeSessionCreateRequest`), and the beta top-level `turn_detection`. Other members
    /// belong to other dialects (`ephemeral` is Datagrid's) and stay out of `session.update`.
    static let sessionFieldNames: Set<String> = [
        "type", "model", "instructions", "audio", "include", "max_output_tokens", "output_modalities", "prompt",
        "tool_choice", "tools", "tracing", "truncation", "turn_detection",
    ]

    /// The session object a scenario asks for: the OpenAI session fields of its `session:`
    /// block (`audio`, `instructions`, `tools`, …) overlaid with its nested `session` object
    /// (`session: {session: {...}}`), with the beta top-level `turn_detection` moved to GA
    /// `audio.input.turn_detection` (`null` included: manual turns).
    static func scenarioSession(_ parameters: [String: JSONValue]) -> [String: JSONValue] {
        var session = parameters.filter { sessionFieldNames.contains($0.key) }
        if case .object(let nested)? = parameters["session"] { session = merging(session, with: nested) }
        if let turnDetection = session.removeValue(forKey: "turn_detection") {
            session = setting(["audio", "input", "turn_detection"], to: turnDetection, in: session)
        }
        return session
    }

    /// Whether `session` turns server turn detection off (`audio.input.turn_detection: null`):
    /// the client then ends each utterance with `input_audio_buffer.commit` and `response.create`.
    /// Azure Voice Live's flat session says it with a top-level `turn_detection: null`.
    package static func hasManualTurns(_ session: [String: JSONValue]) -> Bool {
        if case .null? = session["turn_detection"] { return true }
        guard case .object(let audio)? = session["audio"], case .object(let input)? = audio["input"],
            case .null? = input["turn_detection"]
        else { return false }
        return true
    }

    /// The audio format of a GA `format` object (`{"type":"audio/pcm","rate":24000}`,
    /// `{"type":"audio/pcmu"}`); nil when absent; a one-line reason when vload cannot stream it.
    static func format(_ value: JSONValue?, place: String) throws(InputError) -> AudioFormat? {
        guard let value, value != .null else { return nil }
        guard case .object(let object) = value, case .string(let type)? = object["type"] else {
            throw InputError(
                "openai-realtime session \(place).format must be an object with a \"type\" (audio/pcm, audio/pcmu or audio/pcma)"
            )
        }
        switch type {
        case "audio/pcm":
            guard let rate = object["rate"]?.doubleValue else { return .pcm16(24_000) }
            guard [8_000.0, 16_000, 24_000, 48_000].contains(rate) else {
                throw InputError(
                    "openai-realtime session \(place).format rate \(JSONText.number(rate)) is not one vload streams (8000, 16000, 24000 or 48000)"
                )
            }
            return .pcm16(Int(rate))
        case "audio/pcmu":
            return .mulaw8k
        case "audio/pcma":
            return .alaw8k
        default:
            throw InputError(
                "openai-realtime session \(place).format type '\(type)' is not one vload streams (audio/pcm, audio/pcmu or audio/pcma)"
            )
        }
    }

    /// The input and output formats the scenario's session asks for (`audio.input.format`,
    /// `audio.output.format`), each `fallback` when not given.
    static func formats(
        _ session: [String: JSONValue],
        fallback: (input: AudioFormat, output: AudioFormat)
    ) throws(InputError) -> (input: AudioFormat, output: AudioFormat) {
        var input: JSONValue?
        var output: JSONValue?
        if case .object(let audio)? = session["audio"] {
            if case .object(let inputObject)? = audio["input"] { input = inputObject["format"] }
            if case .object(let outputObject)? = audio["output"] { output = outputObject["format"] }
        }
        return (
            try format(input, place: "audio.input") ?? fallback.input,
            try format(output, place: "audio.output") ?? fallback.output
        )
    }

    /// `base` overlaid with `overlay`: objects present on both sides merge recursively; any
    /// other value of `overlay` replaces the one in `base`.
    static func merging(_ base: [String: JSONValue], with overlay: [String: JSONValue]) -> [String: JSONValue] {
        var merged = base
        for (key, value) in overlay {
            if case .object(let baseObject)? = merged[key], case .object(let overlayObject) = value {
                merged[key] = .object(merging(baseObject, with: overlayObject))
            } else {
                merged[key] = value
            }
        }
        return merged
    }

    /// `object` with the member at `path` set to `value`, creating (or replacing non-object)
    /// intermediate members as needed.
    private static func setting(_ path: ArraySlice<String>, to value: JSONValue, in object: [String: JSONValue]) -> [String: JSONValue] {
        guard let key = path.first else { return object }
        var copy = object
        if path.count == 1 {
            copy[key] = value
        } else {
            var inner: [String: JSONValue] = [:]
            if case .object(let existing)? = object[key] { inner = existing }
            copy[key] = .object(setting(path.dropFirst(), to: value, in: inner))
        }
        return copy
    }

    private static func setting(_ path: [String], to value: JSONValue, in object: [String: JSONValue]) -> [String: JSONValue] {
        setting(path[...], to: value, in: object)
    }
}
