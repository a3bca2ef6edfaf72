import Foundation
import WSClient
import Yams

/// Reads and validates a custom dialect file (docs/custom-dialects.md) into a `CustomDialect`.
///
/// Beyond the schema sketch of docs/dialects.md it accepts: `message_type` (the path naming a
/// message's type; frames without it are malformed), `ignore` (matchers of frames that
/// carry nothing, such as log-only messages), `send.text` (a user text message, `${text}`),
/// `send.message_frames: text | binary`, and `${session}` / `${session.NAME}` (the
/// scenario's session parameters) in templates.
package struct CustomDialectLoader {
    package static let topLevelKeys = [
        "dialect", "description", "api_version", "message_type", "connect", "audio", "send", "events", "captures", "ignore", "timing",
    ]
    package static let audioKeys = ["input", "output"]
    package static let connectKeys = ["url", "headers", "subprotocols", "pre_request"]
    package static let preRequestKeys = ["method", "url", "headers", "json", "capture"]
    package static let captureKeys = ["on", "set"]
    package static let timingKeys = ["quiet_ms", "quiet_fallback", "ready_timeout_ms", "close_timeout_ms"]

    package let reader: CustomNodeReader
    package let environment: [String: String]
    /// Every variable a capture (or the REST step) sets, for `${var.NAME}` checks.
    package var capturedNames: Set<String> = []

    package init(path: String, environment: [String: String]) {
        reader = CustomNodeReader(path: path)
        self.environment = environment
    }

    /// The template scope for `place`, with what it may use besides the common variables.
    package func scope(
        _ place: String,
        audio: Bool = false,
        message: Bool = false,
        text: Bool = false,
        atLoad: Bool = false
    ) -> TemplatePlaceholder.Scope {
        TemplatePlaceholder.Scope(
            allowsAudio: audio,
            allowsMessage: message,
            allowsText: text,
            resolvedAtLoad: atLoad,
            capturedNames: capturedNames,
            environment: environment,
            place: place
        )
    }

    package mutating func dialect(yaml: String) throws(CustomDialectError) -> CustomDialect {
        let root = try compose(yaml)
        let top = try reader.fields(root, allowed: Self.topLevelKeys, what: "a dialect file")
        guard let idNode = top["dialect"] else { throw reader.error(at: root, "missing key 'dialect' (the dialect's id)") }
        let id = try reader.string(idNode, field: "dialect")
        guard !id.isEmpty else { throw reader.error(at: idNode, "'dialect' must not be empty") }
        let about = try top["description"].map { node throws(CustomDialectError) in try reader.string(node, field: "description") }

        let captures = try top["captures"].map { node throws(CustomDialectError) in try self.captures(node) } ?? []
        guard let audioNode = top["audio"] else { throw reader.error(at: root, "missing key 'audio'") }
        let audio = try reader.fields(audioNode, allowed: Self.audioKeys, what: "'audio'")
        guard let inputNode = audio["input"] else { throw reader.error(at: audioNode, "missing key 'audio.input'") }
        let input = try inputFormat(inputNode)
        let outputFormat = try audio["output"].map { node throws(CustomDialectError) in try self.outputFormat(node) } ?? input.format

        var dialect = CustomDialect(id: id, sourcePath: reader.path, inputFormat: input.format, outputFormat: outputFormat)
        dialect.about = about
        dialect.statedAPIVersion = try top["api_version"].map { node throws(CustomDialectError) in try reader.string(node, field: "api_version") }
        dialect.defaultFrameMs = input.frameMs
        dialect.padsSilence = input.padsSilence
        if let connect = top["connect"] { try readConnect(connect, into: &dialect) }
        dialect.rules.captures = captures
        dialect.templates.audio = try audioTemplate(inputNode)
        if let output = audio["output"] { dialect.rules.extract = try extractRules(output) }
        if let events = top["events"] { dialect.rules.events = try eventRules(events) }
        if let ignore = top["ignore"] {
            for item in try reader.sequence(ignore, field: "ignore") {
                dialect.rules.ignore.append(try FrameMatcher(item, reader: reader, what: "a matcher in 'ignore'"))
            }
        }
        if let messageType = top["message_type"] { dialect.rules.messageType = try path(messageType, field: "message_type") }
        if let send = top["send"] {
            try readSend(send, into: &dialect)
        } else {
            dialect.readySignal = dialect.rules.events.contains { $0.name == .sessionReady } ? .event : .onOpen
        }
        if let timing = top["timing"] { try readTiming(timing, into: &dialect) }
        dialect.usesRawText = dialect.rules.usesRawText
        return dialect
    }

    package func path(_ node: Node, field: String) throws(CustomDialectError) -> FramePath {
        let text = try reader.string(node, field: field)
        do {
            return try FramePath(parsing: text)
        } catch {
            throw reader.error(at: node, "bad path in '\(field)': \(error.message)")
        }
    }

    private func compose(_ yaml: String) throws(CustomDialectError) -> Node {
        do {
            let composed = try YAMLComposer.compose(yaml)
            guard let node = composed.root else {
                throw CustomDialectError(path: reader.path, message: "the dialect file is empty")
            }
            if let anchored = composed.anchored {
                throw reader.error(at: anchored, "YAML anchors and aliases are not supported in dialect files")
            }
            return node
        } catch let error as CustomDialectError {
            throw error
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
                throw CustomDialectError(path: reader.path, line: mark.line, column: mark.column, message: "invalid YAML: \(problem)")
            default:
                throw CustomDialectError(path: reader.path, message: "invalid YAML: \(error)")
            }
        } catch {
            throw CustomDialectError(path: reader.path, message: "invalid YAML: \(error)")
        }
    }

    /// `captures: [{on: matcher, set: {name: path}}]`; records the names.
    private mutating func captures(_ node: Node) throws(CustomDialectError) -> [CustomCaptureRule] {
        var rules: [CustomCaptureRule] = []
        for item in try reader.sequence(node, field: "captures") {
            let fields = try reader.fields(item, allowed: Self.captureKeys, what: "a capture")
            guard let on = fields["on"], let set = fields["set"] else { throw reader.error(at: item, "a capture needs 'on' and 'set'") }
            var assignments: [(name: String, path: FramePath)] = []
            for member in try reader.anyFields(set, what: "'set'") {
                try checkVariableName(member.name, at: member.key)
                assignments.append((member.name, try path(member.value, field: "set.\(member.name)")))
                capturedNames.insert(member.name)
            }
            guard !assignments.isEmpty else { throw reader.error(at: set, "'set' needs at least one variable") }
            rules.append(
                CustomCaptureRule(matcher: try FrameMatcher(on, reader: reader, what: "'on' of a capture"), assignments: assignments)
            )
        }
        return rules
    }

    package func checkVariableName(_ name: String, at node: Node) throws(CustomDialectError) {
        let valid =
            name.first.map { $0.isLetter || $0 == "_" } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        guard valid else { throw reader.error(at: node, "'\(name)' is not a variable name (letters, digits and _)") }
    }

    private mutating func readConnect(_ node: Node, into dialect: inout CustomDialect) throws(CustomDialectError) {
        let fields = try reader.fields(node, allowed: Self.connectKeys, what: "'connect'")
        if let preRequest = fields["pre_request"] { dialect.preRequest = try self.preRequest(preRequest) }
        if let urlNode = fields["url"] {
            dialect.urlTemplate = try reader.string(urlNode, field: "connect.url")
            var urlScope = scope("connect.url")
            urlScope.allowsUnsetEnvironment = true
            let template = try MessageTemplate(urlNode, reader: reader, scope: urlScope)
            for segment in template.segments {
                switch segment {
                case .literal, .value(.captured, _), .value(.unsetEnvironment, _): continue
                case .value: throw reader.error(at: urlNode, "connect.url may only use ${env.NAME} and ${var.NAME}")
                }
            }
            dialect.compiledURL = template
            if template.segments.allSatisfy({ if case .literal = $0 { true } else { false } }) {
                dialect.url = template.render(TemplateContext())
            }
        }
        if let headers = fields["headers"] { dialect.headers = try loadTimeHeaders(headers, place: "connect.headers") }
        if let subprotocols = fields["subprotocols"] {
            for item in try reader.sequence(subprotocols, field: "connect.subprotocols") {
                dialect.subprotocols.append(try loadTimeText(item, place: "connect.subprotocols"))
            }
        }
    }

    private mutating func preRequest(_ node: Node) throws(CustomDialectError) -> CustomPreRequest {
        let fields = try reader.fields(node, allowed: Self.preRequestKeys, what: "'pre_request'")
        guard let urlNode = fields["url"] else { throw reader.error(at: node, "'pre_request' needs 'url'") }
        let method =
            try fields["method"].map { node throws(CustomDialectError) in
                try reader.choice(node, field: "pre_request.method", choices: ["GET", "POST", "PUT", "PATCH", "DELETE"])
            } ?? "POST"
        var captures: [(name: String, path: FramePath)] = []
        if let capture = fields["capture"] {
            for member in try reader.anyFields(capture, what: "'pre_request.capture'") {
                try checkVariableName(member.name, at: member.key)
                captures.append((member.name, try path(member.value, field: "capture.\(member.name)")))
                capturedNames.insert(member.name)
            }
        }
        let url = try loadTimeText(urlNode, place: "pre_request.url")
        guard HTTPEndpoint(parsing: url) != nil else {
            throw reader.error(at: urlNode, "'pre_request.url' must be an http:// or https:// URL")
        }
        return CustomPreRequest(
            method: method,
            url: url,
            headers: try fields["headers"].map { node throws(CustomDialectError) in try loadTimeHeaders(node, place: "pre_request.headers")
            } ?? [],
            jsonBody: try fields["json"].map { node throws(CustomDialectError) in
                try MessageTemplate(node, reader: reader, scope: scope("pre_request.json", atLoad: true)).render(TemplateContext())
            },
            captures: captures
        )
    }

    /// A string template with only `${env.NAME}`, resolved now.
    private func loadTimeText(_ node: Node, place: String) throws(CustomDialectError) -> String {
        _ = try reader.string(node, field: place)
        return try MessageTemplate(node, reader: reader, scope: scope(place, atLoad: true)).render(TemplateContext())
    }

    private func loadTimeHeaders(_ node: Node, place: String) throws(CustomDialectError) -> [(String, String)] {
        var headers: [(String, String)] = []
        for member in try reader.anyFields(node, what: "'\(place)'") {
            headers.append((member.name, try loadTimeText(member.value, place: "\(place).\(member.name)")))
        }
        return headers
    }

    private func readTiming(_ node: Node, into dialect: inout CustomDialect) throws(CustomDialectError) {
        let fields = try reader.fields(node, allowed: Self.timingKeys, what: "'timing'")
        if let quiet = fields["quiet_ms"] { dialect.quietMs = try reader.positiveInt(quiet, field: "quiet_ms") }
        if let fallback = fields["quiet_fallback"] { dialect.quietFallback = try reader.bool(fallback, field: "quiet_fallback") }
        if let ready = fields["ready_timeout_ms"] { dialect.readyTimeoutMs = try reader.positiveInt(ready, field: "ready_timeout_ms") }
        if let close = fields["close_timeout_ms"] { dialect.closeTimeoutMs = try reader.positiveInt(close, field: "close_timeout_ms") }
    }
}
