/// A compiled message template of a custom dialect (docs/custom-dialects.md): literal text and
/// placeholders, so building a frame is string concatenation. JSON templates come from YAML
/// mappings and lists; a YAML string is a raw text template, sent as written.
///
/// In a JSON template a placeholder inside a string value is inserted as escaped string
/// text; one that is the whole string value and carries `:int` or `:json` replaces the
/// quoted string by that JSON value. Values read as: strings as they are, `null` or a
/// missing value as nothing (`null` with a suffix), other values as their JSON text.
package struct MessageTemplate: Sendable {
    /// How a value is written where its placeholder stands.
    package enum Placement: Sendable, Hashable {
        /// String text, JSON-escaped (inside a JSON string).
        case escaped
        /// String text as is (raw text templates).
        case plain
        /// The value's JSON text (`:json`).
        case json
        /// The value as a JSON integer, or `null` (`:int`).
        case int
    }

    package enum Segment: Sendable {
        case literal(String)
        case value(TemplatePlaceholder.Variable, Placement)
    }

    package let segments: [Segment]
    /// Whether the template is JSON (else raw text).
    package let isJSON: Bool
    /// The `${uuid}`, `${digits:N}` and `${now_iso}` placeholders, in order: a frame's values
    /// for them are drawn before it is rendered (`TemplateContext.generated`).
    package let generated: [TemplatePlaceholder.Variable]

    package init(segments: [Segment], isJSON: Bool) {
        self.segments = segments
        self.isJSON = isJSON
        generated = segments.compactMap { segment in
            if case .value(let variable, _) = segment, variable.isGenerated { return variable }
            return nil
        }
    }

    /// Whether rendering draws a `${seq}` number.
    package var usesSeq: Bool { uses { $0 == .seq } }

    /// The first `${env.NAME}` left unresolved because the variable is not set (`connect.url`).
    package var unsetEnvironmentName: String? {
        for case .value(.unsetEnvironment(let name), _) in segments { return name }
        return nil
    }

    /// Whether the template uses the audio of the frame.
    package var usesAudio: Bool { uses { $0 == .audioBase64 || $0 == .audioBase64URL } }

    /// Whether every placeholder is audio, so one frame per audio chunk serves every
    /// connection (`PreparedAudio(sharedFrame:)`).
    package var dependsOnlyOnAudio: Bool {
        !uses { $0 != .audioBase64 && $0 != .audioBase64URL }
    }

    /// The text of the frame for `context`. Audio is appended as is (base64 needs no escaping).
    package func render(_ context: TemplateContext) -> String {
        var output = ""
        output.reserveCapacity(64 + (context.audioBase64?.utf8.count ?? 0))
        var generatedValues = context.generated.makeIterator()
        for segment in segments {
            switch segment {
            case .literal(let text):
                output += text
            case .value(.audioBase64, _):
                output += context.audioBase64 ?? ""
            case .value(.audioBase64URL, _):
                output += Self.base64URL(context.audioBase64 ?? "")
            case .value(let variable, let placement):
                let value = variable.isGenerated ? generatedValues.next().map(JSONValue.string) : context.value(of: variable)
                switch placement {
                case .escaped: JSONText.appendEscaped(JSONText.plain(value), to: &output)
                case .plain: output += JSONText.plain(value)
                case .json: output += value.map(JSONText.text) ?? "null"
                case .int: output += JSONText.integer(value)
                }
            }
        }
        return output
    }

    /// Standard base64 rewritten as base64url (RFC 4648 §5): `-` and `_`, no padding.
    package static func base64URL(_ base64: String) -> String {
        var bytes = Array(base64.utf8)
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "+"): bytes[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): bytes[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func uses(_ predicate: (TemplatePlaceholder.Variable) -> Bool) -> Bool {
        segments.contains { segment in
            if case .value(let variable, _) = segment { return predicate(variable) }
            return false
        }
    }
}

/// What a template's placeholders are filled with when one frame is built.
package struct TemplateContext {
    package var audioBase64: String?
    package var seq = 0
    package var chunk = 0
    package var tsMs = 0
    package var variables: [String: JSONValue] = [:]
    package var session: [String: JSONValue] = [:]
    /// The inbound frame a reply answers.
    package var message: InboundFrame?
    package var text: String?
    /// The values of the template's generated placeholders (`MessageTemplate.generated`), in order.
    package var generated: [String] = []

    package init(
        audioBase64: String? = nil,
        seq: Int = 0,
        chunk: Int = 0,
        tsMs: Int = 0,
        variables: [String: JSONValue] = [:],
        session: [String: JSONValue] = [:],
        message: InboundFrame? = nil,
        text: String? = nil,
        generated: [String] = []
    ) {
        self.audioBase64 = audioBase64
        self.seq = seq
        self.chunk = chunk
        self.tsMs = tsMs
        self.variables = variables
        self.session = session
        self.message = message
        self.text = text
        self.generated = generated
    }

    /// The value of a placeholder; nil for generated ones, which come from `generated`.
    package func value(of variable: TemplatePlaceholder.Variable) -> JSONValue? {
        switch variable {
        case .audioBase64, .audioBase64URL: return audioBase64.map(JSONValue.string)
        case .seq: return .number(Double(seq))
        case .chunk: return .number(Double(chunk))
        case .tsMs: return .number(Double(tsMs))
        case .captured(let name): return variables[name]
        case .message(let path): return message.flatMap(path.first)
        case .session(nil): return .object(session)
        case .session(let name?): return session[name]
        case .text: return text.map(JSONValue.string)
        case .unsetEnvironment, .uuid, .digits, .nowISO: return nil
        }
    }
}
