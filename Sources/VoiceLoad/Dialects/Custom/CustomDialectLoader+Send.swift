import Yams

extension CustomDialectLoader {
    package static let sendKeys = [
        "on_open", "start_audio_on", "interrupt", "commit", "keepalive", "close", "replies", "text", "message_frames",
    ]
    package static let keepAliveKeys = ["every_ms", "only_when_idle", "json"]
    package static let replyKeys = ["on", "at", "json"]

    /// `events`: each normalized event name maps to one rule or a list of rules; the rules
    /// come back in emission order (file order within one name).
    package func eventRules(_ node: Node) throws(CustomDialectError) -> [CustomEventRule] {
        var rules: [CustomEventRule] = []
        for member in try reader.anyFields(node, what: "'events'") {
            guard let name = CustomEventName(rawValue: member.name), name != .agentAudio else {
                let hint = member.name == CustomEventName.agentAudio.rawValue ? "agent audio is declared in audio.output.extract; " : ""
                let known = CustomEventName.declarable.map(\.rawValue).joined(separator: ", ")
                throw reader.error(at: member.key, "unknown event '\(member.name)' (\(hint)known: \(known))")
            }
            let items = reader.oneOrMany(member.value)
            guard !items.isEmpty else { throw reader.error(at: member.value, "'\(member.name)' needs at least one rule") }
            for item in items {
                rules.append(try CustomEventRule(name: name, node: item, reader: reader))
            }
        }
        return rules.enumerated()
            .sorted { ($0.element.name.order, $0.offset) < ($1.element.name.order, $1.offset) }
            .map(\.element)
    }

    /// `send`: lifecycle templates, readiness, keep-alive and replies.
    package func readSend(_ node: Node, into dialect: inout CustomDialect) throws(CustomDialectError) {
        let fields = try reader.fields(node, allowed: Self.sendKeys, what: "'send'")
        if let kind = fields["message_frames"] {
            dialect.templates.messagesAsBinary = try reader.choice(kind, field: "message_frames", choices: ["text", "binary"]) == "binary"
        }
        if let onOpen = fields["on_open"] {
            for item in try reader.sequence(onOpen, field: "on_open") {
                dialect.templates.onOpen.append(try template(item, place: "send.on_open"))
            }
        }
        let declaresReady = dialect.rules.events.contains { $0.name == .sessionReady }
        dialect.readySignal = declaresReady ? .event : .onOpen
        if let startNode = fields["start_audio_on"] {
            let start = try reader.choice(startNode, field: "start_audio_on", choices: ["ready", "open"])
            if start == "ready", !declaresReady {
                throw reader.error(at: startNode, "'start_audio_on: ready' needs a 'session.ready' rule in 'events'")
            }
            dialect.readySignal = start == "ready" ? .event : .onOpen
        }
        dialect.templates.interrupt = try optionalTemplate(fields["interrupt"], place: "send.interrupt")
        dialect.templates.commit = try optionalTemplate(fields["commit"], place: "send.commit")
        dialect.templates.close = try optionalTemplate(fields["close"], place: "send.close")
        dialect.templates.text = try optionalTemplate(fields["text"], place: "send.text", text: true)
        if let keepAlive = fields["keepalive"], !reader.isNull(keepAlive) {
            let keepAliveFields = try reader.fields(keepAlive, allowed: Self.keepAliveKeys, what: "'send.keepalive'")
            guard let every = keepAliveFields["every_ms"], let json = keepAliveFields["json"] else {
                throw reader.error(at: keepAlive, "'send.keepalive' needs 'every_ms' and 'json'")
            }
            dialect.keepAliveRule = CustomKeepAlive(
                everyMs: try reader.positiveInt(every, field: "every_ms"),
                onlyWhenIdle: try keepAliveFields["only_when_idle"].map { node throws(CustomDialectError) in
                    try reader.bool(node, field: "only_when_idle")
                } ?? false
            )
            dialect.templates.keepAlive = try template(json, place: "send.keepalive.json")
        }
        if let replies = fields["replies"] {
            for item in try reader.sequence(replies, field: "replies") {
                dialect.rules.replies.append(try reply(item))
            }
        }
    }

    private func reply(_ node: Node) throws(CustomDialectError) -> CustomReplyRule {
        let fields = try reader.fields(node, allowed: Self.replyKeys, what: "a reply")
        guard let on = fields["on"], let json = fields["json"] else { throw reader.error(at: node, "a reply needs 'on' and 'json'") }
        return CustomReplyRule(
            matcher: try FrameMatcher(on, reader: reader, what: "'on' of a reply"),
            timing: try fields["at"].map { node throws(CustomDialectError) in try replyTiming(node) } ?? .immediately,
            template: try template(json, place: "send.replies", message: true)
        )
    }

    /// `at: immediately | playback_reaches_here | after_ms:<n>`.
    private func replyTiming(_ node: Node) throws(CustomDialectError) -> CodecReply.Timing {
        let value = node.scalar?.string ?? ""
        let prefix = "after_ms:"
        if value.hasPrefix(prefix) {
            guard let delayMs = Int(value.dropFirst(prefix.count)), (0...Self.maxReplyDelayMs).contains(delayMs) else {
                throw reader.error(
                    at: node,
                    "'at: \(value)': the delay must be a whole number of milliseconds from 0 to \(Self.maxReplyDelayMs)"
                )
            }
            return .afterMs(delayMs)
        }
        switch value {
        case "immediately": return .immediately
        case "playback_reaches_here": return .whenPlayedOut
        default: throw reader.error(at: node, "'at' must be one of: immediately, playback_reaches_here, after_ms:<n>")
        }
    }

    /// The longest `after_ms` delay: one hour.
    package static let maxReplyDelayMs = 3_600_000

    private func template(
        _ node: Node,
        place: String,
        message: Bool = false,
        text: Bool = false
    ) throws(CustomDialectError) -> MessageTemplate {
        try MessageTemplate(node, reader: reader, scope: scope(place, message: message, text: text))
    }

    /// A template, or nil when the key is absent or `null`.
    private func optionalTemplate(_ node: Node?, place: String, text: Bool = false) throws(CustomDialectError) -> MessageTemplate? {
        guard let node, !reader.isNull(node) else { return nil }
        return try template(node, place: place, text: text)
    }
}
