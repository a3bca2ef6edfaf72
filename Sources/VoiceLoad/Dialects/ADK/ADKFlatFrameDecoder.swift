import WSCore

/// Decodes what adk-seed and adk-legacy servers send (docs/dialects.md): flat JSON
/// objects that carry content (`mime_type` + `data`), a `type` message (transcriptions, tool
/// use, status) and the turn flags, in any combination.
///
/// Every rule is evaluated on every frame; a frame's events come in this order: content,
/// `type` message, `interrupted`, `turn_complete`. Both variants are decoded the same way, so
/// a legacy-derived server that adds seed messages (or the reverse) is understood.
struct ADKFlatFrameDecoder {
    /// The format of agent audio.
    let outputFormat: AudioFormat

    func decode(_ frame: WireFrame) -> [NormalizedEvent] {
        let object: ADKJSONObject
        switch ADKJSONObject.parse(frame) {
        case .success(let parsed): object = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        var events: [NormalizedEvent] = []
        var recognized = object.has(ADKJSONObject.flagKeys)
        if let rawMimeType = object.value("mime_type", "mimeType") {
            recognized = true
            events += contentEvents(object, mimeType: rawMimeType)
        }
        if let rawType = object.value("type") {
            recognized = true
            if let type = rawType.stringValue {
                events += messageEvents(object, type: type)
            } else {
                events.append(.malformed(reason: "\"type\" is \(JSONFrame.kindName(of: rawType)), not a string"))
            }
        }
        guard recognized else { return [.unknown(type: object.shapeDescription)] }
        return events + object.flagEvents()
    }

    /// `{"mime_type":"audio/…","data":b64}` → agent audio; `text/…` is agent text, which
    /// no metric uses; any other type is unknown.
    private func contentEvents(_ object: ADKJSONObject, mimeType rawMimeType: JSONValue) -> [NormalizedEvent] {
        guard let mimeType = rawMimeType.stringValue else {
            return [.malformed(reason: "\"mime_type\" is \(JSONFrame.kindName(of: rawMimeType)), not a string")]
        }
        if mimeType.hasPrefix("audio/") {
            return ADKJSONObject.audioEvents(data: object.value("data"), format: outputFormat, source: mimeType)
        }
        if mimeType.hasPrefix("text/") { return [] }
        return [.unknown(type: mimeType)]
    }

    /// `input_transcription` / `output_transcription` (`data`, `finished`) → user / assistant
    /// transcripts, final only with `finished: true`; `tool_use` → a tool call the server
    /// already ran (status `completed`, arguments from `tool_args`); any other `type` is a status event, counted as unknown.
    private func messageEvents(_ object: ADKJSONObject, type: String) -> [NormalizedEvent] {
        switch type {
        case "input_transcription", "output_transcription":
            let role = type == "input_transcription" ? "user" : "assistant"
            let text = object.value("data", "text")?.stringValue ?? ""
            let isFinal = object.value("finished")?.boolValue ?? false
            if text.isEmpty, !isFinal { return [] }
            return [.transcript(role: role, text: text, isFinal: isFinal)]
        case "tool_use":
            let name = object.value("tool_name", "name")?.stringValue ?? ""
            return [
                .toolCall(
                    name: name,
                    status: "completed",
                    id: object.value("id")?.stringValue,
                    arguments: ToolCallArguments.text(object.value("tool_args", "args"))
                )
            ]
        default:
            return [.unknown(type: type)]
        }
    }
}
