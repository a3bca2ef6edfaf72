import Yams

/// One rule of `events` (docs/custom-dialects.md): a matcher, and where the event's fields come
/// from. A rule fires on every frame its matcher accepts, except that a transcript whose
/// `text`, or a tool call whose `name`, yields nothing does not fire. Fields that yield
/// nothing otherwise take their defaults: role `unknown`, final `true`, status and message
/// empty, fatal `false`, no code, turn key or reason.
///
/// `transcript.cumulative`, `tool.call.args` and `tool.call.id` are read and checked, but
/// `NormalizedEvent` has no place for them yet.
package struct CustomEventRule: Sendable {
    package enum Fields: Sendable {
        case none
        case ids([(name: String, source: FieldSource)])
        case turnKey(FieldSource?)
        case transcript(role: FieldSource, text: FieldSource, isFinal: FieldSource?)
        case toolCall(name: FieldSource, status: FieldSource?)
        case error(code: FieldSource?, message: FieldSource?, fatal: FieldSource?)
        case reason(FieldSource?)
    }

    package let name: CustomEventName
    package let matcher: FrameMatcher
    package let fields: Fields

    /// The event this rule makes of `frame`, nil when it does not fire.
    package func event(in frame: InboundFrame) -> NormalizedEvent? {
        guard matcher.matches(frame) else { return nil }
        switch (name, fields) {
        case (.sessionStarted, .ids(let sources)):
            var ids: [String: String] = [:]
            for (key, source) in sources {
                if let value = source.string(in: frame) { ids[key] = value }
            }
            return .sessionStarted(ids: ids)
        case (.agentSpeechStarted, .turnKey(let source)):
            return .agentSpeechStarted(turnKey: source?.string(in: frame))
        case (.agentSpeechEnded, .turnKey(let source)):
            return .agentSpeechEnded(turnKey: source?.string(in: frame))
        case (.turnComplete, .turnKey(let source)):
            return .turnComplete(turnKey: source?.string(in: frame))
        case (.transcript, .transcript(let role, let text, let isFinal)):
            guard let text = text.string(in: frame) else { return nil }
            return .transcript(role: role.string(in: frame) ?? "unknown", text: text, isFinal: isFinal?.bool(in: frame) ?? true)
        case (.toolCall, .toolCall(let name, let status)):
            guard let name = name.string(in: frame) else { return nil }
            return .toolCall(name: name, status: status?.string(in: frame) ?? "")
        case (.error, .error(let code, let message, let fatal)):
            return .error(
                code: code?.string(in: frame),
                message: message?.string(in: frame) ?? "",
                fatal: fatal?.bool(in: frame) ?? false
            )
        case (.sessionEnded, .reason(let source)):
            return .sessionEnded(reason: source?.string(in: frame))
        case (.sessionReady, _): return .sessionReady
        case (.userSpeechStarted, _): return .userSpeechStarted
        case (.userSpeechStopped, _): return .userSpeechStopped
        case (.agentInterrupted, _): return .agentInterrupted
        default: return nil
        }
    }

    /// Reads one rule `{match: {…}, <fields>}` for event `name`.
    package init(name: CustomEventName, node: Node, reader: CustomNodeReader) throws(CustomDialectError) {
        let what = "the '\(name.rawValue)' rule"
        let fields = try reader.fields(node, allowed: ["match"] + name.fieldNames, what: what)
        guard let matchNode = fields["match"] else { throw reader.error(at: node, "\(what) needs 'match'") }
        self.name = name
        matcher = try FrameMatcher(matchNode, reader: reader, what: "'match' of \(what)")
        func source(_ key: String, _ kind: FieldSource.Kind = .string) throws(CustomDialectError) -> FieldSource? {
            guard let value = fields[key] else { return nil }
            return try FieldSource(value, kind: kind, reader: reader, field: "\(name.rawValue).\(key)")
        }
        func required(_ key: String) throws(CustomDialectError) -> FieldSource {
            guard let value = try source(key) else { throw reader.error(at: node, "\(what) needs '\(key)'") }
            return value
        }
        switch name {
        case .sessionStarted:
            var sources: [(name: String, source: FieldSource)] = []
            if let ids = fields["ids"] {
                for member in try reader.anyFields(ids, what: "'session.started.ids'") {
                    sources.append((member.name, try FieldSource(member.value, kind: .string, reader: reader, field: "ids.\(member.name)")))
                }
            }
            self.fields = .ids(sources)
        case .agentSpeechStarted, .agentSpeechEnded, .turnComplete:
            self.fields = .turnKey(try source("turn_key"))
        case .transcript:
            if let cumulative = fields["cumulative"] { _ = try reader.bool(cumulative, field: "cumulative") }
            self.fields = .transcript(role: try required("role"), text: try required("text"), isFinal: try source("final", .bool))
        case .toolCall:
            _ = try source("args")
            _ = try source("id")
            self.fields = .toolCall(name: try required("name"), status: try source("status"))
        case .error:
            self.fields = .error(code: try source("code"), message: try source("message"), fatal: try source("fatal", .bool))
        case .sessionEnded:
            self.fields = .reason(try source("reason"))
        case .sessionReady, .userSpeechStarted, .userSpeechStopped, .agentInterrupted, .agentAudio:
            self.fields = .none
        }
    }
}
