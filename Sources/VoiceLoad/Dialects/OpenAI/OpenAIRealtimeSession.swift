/// The GA session configuration of the OpenAI Realtime dialect (PROTOCOLS.md §7.2, ruling 9):
/// what vload sends in `session.update`, and what the simulator reports in `session.created`
/// and `session.updated`.
enum OpenAIRealtimeSession {
    /// The input transcription model vload asks for, so user transcripts can be timed (§7.7 e).
    static let defaultTranscriptionModel = "gpt-4o-mini-transcribe"

    /// The GA `format` object of an audio format: PCM16 is `{"type":"audio/pcm","rate":R}`,
    /// µ-law is `{"type":"audio/pcmu"}` (§7.5).
    static func formatObject(_ format: AudioFormat) -> JSONValue {
        switch format.encoding {
        case .pcm16: return .object(["type": .string("audio/pcm"), "rate": .number(Double(format.sampleRateHz))])
        case .mulaw: return .object(["type": .string("audio/pcmu")])
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
        scenarioSession: [String: JSONValue], inputFormat: AudioFormat, outputFormat: AudioFormat
    ) -> [String: JSONValue] {
        var session = merging(defaults(inputFormat: inputFormat, outputFormat: outputFormat), with: scenarioSession)
        session = setting(["audio", "input", "format"], to: formatObject(inputFormat), in: session)
        session = setting(["audio", "output", "format"], to: formatObject(outputFormat), in: session)
        return session
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
