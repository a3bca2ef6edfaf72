import WSClient
import WSCore

/// The query of a Deepgram `/v1/listen` URL, where all of the speech-to-text configuration
/// travels (docs/dialects.md): the defaults vload adds and the rendering of
/// session parameters as query items.
enum DeepgramListenQuery {
    /// The model vload asks for unless the URL or the session's `model` names one (Deepgram's
    /// SDK requires a model; nova-3 is its current general model).
    static let defaultModel = "nova-3"

    /// The parameters vload always sets unless the URL or the session parameters say
    /// otherwise, in the order they are appended, for user audio in `format`.
    static func defaults(for format: AudioFormat) -> [(name: String, value: String)] {
        [
            ("model", defaultModel),
            ("encoding", DeepgramMessage.encodingName(of: format)),
            ("sample_rate", String(format.sampleRateHz)),
            ("channels", "1"),
            ("interim_results", "true"),
            ("endpointing", "300"),
            ("utterance_end_ms", "1000"),
            ("vad_events", "true"),
        ]
    }

    /// `base` with every missing default and every session parameter added to its query.
    ///
    /// A parameter the URL already has is left as the user wrote it. Otherwise a session
    /// parameter of the same name replaces the default; a `null` parameter drops it. Other
    /// session parameters (`model`, `language`, `keyterm`…) are appended after the defaults in
    /// name order: strings as they are, booleans as `true`/`false`, whole numbers without a
    /// fraction, arrays as one item per element; objects are skipped.
    static func endpoint(
        for base: WebSocketEndpoint,
        parameters: [String: JSONValue],
        format: AudioFormat
    ) -> WebSocketEndpoint {
        endpoint(for: base, parameters: parameters, defaults: defaults(for: format))
    }

    /// `base` with every missing one of `defaults` (Flux's on `/v2/listen`) and every session
    /// parameter added to its query, by the rules above.
    static func endpoint(
        for base: WebSocketEndpoint,
        parameters: [String: JSONValue],
        defaults: [(name: String, value: String)]
    ) -> WebSocketEndpoint {
        var endpoint = base
        for (name, value) in defaults where base.queryValue(named: name) == nil {
            let values = parameters[name].map(queryValues) ?? [value]
            for item in values { endpoint = endpoint.addingQueryItem(name: name, value: item) }
        }
        let defaultNames = Set(defaults.map(\.name))
        for name in parameters.keys.sorted() where !defaultNames.contains(name) && base.queryValue(named: name) == nil {
            for item in queryValues(parameters[name] ?? .null) {
                endpoint = endpoint.addingQueryItem(name: name, value: item)
            }
        }
        return endpoint
    }

    /// Whether query parameter `name` in request target `target` (`/v1/listen?a=b`) is
    /// anything but `false`: an absent parameter counts as enabled.
    static func isEnabled(_ name: String, inTarget target: String) -> Bool {
        guard let question = target.firstIndex(of: "?") else { return true }
        let query = String(target[target.index(after: question)...])
        return URLQuery.value(of: name, in: query)?.lowercased() != "false"
    }

    /// The query values of one session parameter (none for `null` and objects).
    static func queryValues(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let text): return [text]
        case .bool(let flag): return [flag ? "true" : "false"]
        case .integer(let integer): return [String(integer)]
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 { return [String(Int(number))] }
            return [String(number)]
        case .array(let elements):
            return elements.flatMap { element -> [String] in
                if case .array = element { return [] }
                return queryValues(element)
            }
        case .null, .object:
            return []
        }
    }
}
