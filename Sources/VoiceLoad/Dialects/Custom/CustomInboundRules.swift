/// Everything a custom dialect says about inbound frames: audio extraction, event rules in
/// emission order, captures, replies and frames to ignore.
///
/// Every rule is evaluated against every frame (docs/custom-dialects.md). A frame that no
/// rule accepts becomes `.unknown(type:)` named by `message_type` (default `$.type`, else
/// `$.event`, else its sorted top-level keys, `{goAway}`), or `.malformed` when it is not
/// JSON, not a JSON object, or lacks the declared `message_type` string.
package struct CustomInboundRules: Sendable {
    package var outputFormat: AudioFormat
    /// First matching rule wins per frame.
    package var extract: [AudioExtractRule] = []
    package var events: [CustomEventRule] = []
    package var captures: [CustomCaptureRule] = []
    package var replies: [CustomReplyRule] = []
    package var ignore: [FrameMatcher] = []
    /// Where a message names its type; declaring it makes frames without that string malformed.
    package var messageType: FramePath?

    package init(outputFormat: AudioFormat) {
        self.outputFormat = outputFormat
    }

    /// JSON is read from binary frames only when no rule takes raw binary audio.
    package var parsesBinaryAsJSON: Bool { !extract.contains { $0.data == nil } }

    /// Whether any matcher reads `@raw`.
    package var usesRawText: Bool {
        extract.contains { $0.matcher.usesRawText } || events.contains { $0.matcher.usesRawText }
            || captures.contains { $0.matcher.usesRawText } || replies.contains { $0.matcher.usesRawText }
            || ignore.contains(where: \.usesRawText)
    }

    /// The events of `frame` in emission order, and whether any rule (audio, event, ignore)
    /// accepted it.
    package func events(in frame: InboundFrame) -> (events: [NormalizedEvent], recognized: Bool) {
        var events: [NormalizedEvent] = []
        var recognized = false
        var audioDone = false
        for rule in self.events {
            if !audioDone, rule.name.order > CustomEventName.agentAudio.order {
                recognized = appendAudio(of: frame, to: &events) || recognized
                audioDone = true
            }
            if let event = rule.event(in: frame) {
                events.append(event)
                recognized = true
            }
        }
        if !audioDone { recognized = appendAudio(of: frame, to: &events) || recognized }
        if !recognized { recognized = ignore.contains { $0.matches(frame) } }
        return (events, recognized)
    }

    /// The event of a frame no rule accepted.
    package func unrecognizedEvent(_ frame: InboundFrame) -> NormalizedEvent {
        if frame.kind == .binary, !parsesBinaryAsJSON { return .unknown(type: "binary") }
        guard let json = frame.json else { return .malformed(reason: frame.parseFailure ?? "not JSON") }
        guard let object = json.objectValue else {
            return .malformed(reason: "JSON is \(JSONFrame.kindName(of: json)), not an object")
        }
        if let messageType {
            guard let type = messageType.first(in: frame)?.stringValue else {
                return .malformed(reason: "no string at \(messageType)")
            }
            return .unknown(type: type)
        }
        return .unknown(
            type: object["type"]?.stringValue ?? object["event"]?.stringValue ?? "{" + object.keys.sorted().joined(separator: ",") + "}"
        )
    }

    private func appendAudio(of frame: InboundFrame, to events: inout [NormalizedEvent]) -> Bool {
        guard let rule = extract.first(where: { $0.matcher.matches(frame) }) else { return false }
        if let event = rule.event(in: frame, format: outputFormat) { events.append(event) }
        return true
    }
}
