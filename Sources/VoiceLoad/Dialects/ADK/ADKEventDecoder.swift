import WSCore

/// Decodes the raw ADK `Event` JSON an adk-events server (bidi-demo) sends (docs/dialects.md): camelCase keys
/// (snake_case accepted too), audio in `content.parts[].inlineData`
/// as base64 or base64url (padded or not), transcriptions with `finished`, function calls,
/// `errorCode`/`errorMessage` and the turn flags, in any combination.
///
/// Every rule is evaluated on every frame; a frame's events come in this order: content
/// parts (in part order), input then output transcription, error, `interrupted`,
/// `turnComplete`.
struct ADKEventDecoder {
    /// The format of agent audio.
    let outputFormat: AudioFormat

    func decode(_ frame: WireFrame) -> [NormalizedEvent] {
        let object: ADKJSONObject
        switch ADKJSONObject.parse(frame) {
        case .success(let parsed): object = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        guard object.has(Self.eventKeys) else {
            if let type = object.value("type")?.stringValue { return [.unknown(type: type)] }
            return [.unknown(type: object.shapeDescription)]
        }
        var events: [NormalizedEvent] = []
        if let content = object.value("content") {
            events += contentEvents(content)
        }
        events += transcriptEvents(object.value("inputTranscription", "input_transcription"), role: "user")
        events += transcriptEvents(object.value("outputTranscription", "output_transcription"), role: "assistant")
        let code = object.value("errorCode", "error_code").map { JSONText.plain($0) }
        let message = object.value("errorMessage", "error_message").map { JSONText.plain($0) }
        if code != nil || message != nil {
            events.append(.error(code: code, message: message ?? code ?? "", fatal: false))
        }
        return events + object.flagEvents()
    }

    /// `content.parts[]`: `inlineData` audio → agent audio (other media types are unknown),
    /// `functionCall` → a tool call ADK runs itself (status `called`, with its `id` and `args`); text, function
    /// responses and other parts carry nothing vload measures.
    private func contentEvents(_ rawContent: JSONValue) -> [NormalizedEvent] {
        guard let contentMembers = rawContent.objectValue else {
            return [.malformed(reason: "\"content\" is \(JSONFrame.kindName(of: rawContent)), not an object")]
        }
        guard let rawParts = ADKJSONObject(members: contentMembers).value("parts") else { return [] }
        guard let parts = rawParts.arrayValue else {
            return [.malformed(reason: "\"content.parts\" is \(JSONFrame.kindName(of: rawParts)), not an array")]
        }
        var events: [NormalizedEvent] = []
        for rawPart in parts {
            guard let partMembers = rawPart.objectValue else {
                events.append(.malformed(reason: "a content part is \(JSONFrame.kindName(of: rawPart)), not an object"))
                continue
            }
            let part = ADKJSONObject(members: partMembers)
            if let inlineData = part.value("inlineData", "inline_data") {
                events += inlineDataEvents(inlineData)
            }
            if let functionCall = part.value("functionCall", "function_call")?.objectValue {
                let call = ADKJSONObject(members: functionCall)
                events.append(
                    .toolCall(
                        name: call.value("name")?.stringValue ?? "",
                        status: "called",
                        id: call.value("id")?.stringValue,
                        arguments: ToolCallArguments.text(call.value("args"))
                    )
                )
            }
        }
        return events
    }

    private func inlineDataEvents(_ rawInlineData: JSONValue) -> [NormalizedEvent] {
        guard let members = rawInlineData.objectValue else {
            return [.malformed(reason: "\"inlineData\" is \(JSONFrame.kindName(of: rawInlineData)), not an object")]
        }
        let inlineData = ADKJSONObject(members: members)
        let mimeType = inlineData.value("mimeType", "mime_type")?.stringValue ?? ""
        guard mimeType.hasPrefix("audio/") else { return [.unknown(type: mimeType.isEmpty ? "inlineData" : mimeType)] }
        return ADKJSONObject.audioEvents(data: inlineData.value("data"), format: outputFormat, source: "inlineData")
    }

    /// `{text, finished}` → a transcript, final only with `finished: true`; an empty
    /// unfinished piece carries nothing.
    private func transcriptEvents(_ rawTranscription: JSONValue?, role: String) -> [NormalizedEvent] {
        guard let rawTranscription else { return [] }
        guard let members = rawTranscription.objectValue else {
            return [.malformed(reason: "\(role) transcription is \(JSONFrame.kindName(of: rawTranscription)), not an object")]
        }
        let transcription = ADKJSONObject(members: members)
        let text = transcription.value("text")?.stringValue ?? ""
        let isFinal = transcription.value("finished")?.boolValue ?? false
        if text.isEmpty, !isFinal { return [] }
        return [.transcript(role: role, text: text, isFinal: isFinal)]
    }

    /// The members of an ADK `Event` (and its `LlmResponse` base), in both spellings: an
    /// object with none of them is not an event.
    static let eventKeys: [String] = [
        "content", "partial", "turnComplete", "turn_complete", "interrupted", "errorCode", "error_code",
        "errorMessage", "error_message", "finishReason", "finish_reason", "inputTranscription",
        "input_transcription", "outputTranscription", "output_transcription", "usageMetadata", "usage_metadata",
        "groundingMetadata", "grounding_metadata", "customMetadata", "custom_metadata",
        "liveSessionResumptionUpdate", "live_session_resumption_update", "author", "invocationId",
        "invocation_id", "id", "timestamp", "actions", "branch", "longRunningToolIds", "long_running_tool_ids",
        "modelVersion", "model_version",
    ]
}
