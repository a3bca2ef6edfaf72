import Foundation
import WSCore

/// A client dialect described by a YAML file instead of Swift (docs/custom-dialects.md): matchers
/// map inbound frames to normalized events, templates build outbound messages.
///
/// Load one with `CustomDialect.load(path:)`; every mistake in the file (unknown key, bad
/// matcher or path, unknown template variable, unset environment variable) is reported then,
/// as one `file:line:column: …` line, never while a run is under way. Credentials travel in
/// `headers`, `subprotocols` or the URL through `${env.NAME}`, so `authentication` is `.none`.
package struct CustomDialect: ClientDialect {
    /// The `dialect:` id of the file.
    package let id: String
    /// The file the dialect was read from.
    package let sourcePath: String
    /// The file's `description:`, one line for `vload dialects`.
    package internal(set) var about: String?
    /// `audio.input` encoding and rate: the format user audio is sent in.
    package let inputFormat: AudioFormat
    /// `audio.output` encoding and rate (the input format when `audio.output` is absent).
    package let outputFormat: AudioFormat
    /// `.event` for `start_audio_on: ready` (the default when `session.ready` is declared),
    /// `.onOpen` for `open`.
    package internal(set) var readySignal = ReadySignal.onOpen
    /// Credentials go through `${env.NAME}` in headers, subprotocols or the URL.
    package let authentication = AuthenticationStyle.none
    /// `audio.input.frame_ms` (default 40).
    package internal(set) var defaultFrameMs = 40
    /// Whether `audio.input.pad_silence` asks for silence after the utterance (default true).
    package internal(set) var padsSilence = true
    /// `connect.url` as written. The run's own URL wins; it is used only after a
    /// `pre_request` taken at the run's http(s) URL whose answer has no `ws_url`.
    package internal(set) var urlTemplate: String?
    /// `connect.url` with `${env.NAME}` resolved; nil when it needs a captured variable or an
    /// unset environment variable (the only place where an unset one is not an error).
    package internal(set) var url: String?
    /// `connect.headers`, resolved at load time from the environment, in file order.
    package internal(set) var headers: [(String, String)] = []
    /// `connect.subprotocols`, resolved at load time from the environment.
    package internal(set) var subprotocols: [String] = []
    /// `connect.pre_request`: the REST step every session takes first.
    package internal(set) var preRequest: CustomPreRequest?
    /// `send.keepalive` timing, when declared.
    package internal(set) var keepAliveRule: CustomKeepAlive?
    /// `send.keepalive` as the client sends it: every `every_ms`, and while audio streams too
    /// unless `only_when_idle`.
    package var keepAlive: KeepAlivePolicy? {
        keepAliveRule.map { KeepAlivePolicy(everyMs: $0.everyMs, whileStreaming: !$0.onlyWhenIdle) }
    }
    /// `api_version`: the provider API version the file speaks, when it says.
    package internal(set) var statedAPIVersion: String?
    package var apiVersion: String { statedAPIVersion ?? "not stated in the file (api_version)" }
    /// `timing.quiet_ms` (default 500): the gap that ends a derived agent turn.
    package internal(set) var quietMs = 500
    /// `timing.quiet_fallback` (default false): with an end-of-turn rule, a quiet gap still ends
    /// a turn whose event does not come.
    package internal(set) var quietFallback = false
    /// `timing.ready_timeout_ms` and `timing.close_timeout_ms`, when declared.
    package internal(set) var readyTimeoutMs: Int?
    package internal(set) var closeTimeoutMs: Int?

    /// `connect.url` compiled: `${env.NAME}` resolved (or left unset), `${var.NAME}` open.
    package var compiledURL: MessageTemplate?
    package var rules: CustomInboundRules
    package var templates = CustomSendTemplates()
    /// Whether some matcher reads `@raw` (binary frames are then decoded as text).
    package var usesRawText = false

    package init(id: String, sourcePath: String, inputFormat: AudioFormat, outputFormat: AudioFormat) {
        self.id = id
        self.sourcePath = sourcePath
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        rules = CustomInboundRules(outputFormat: outputFormat)
    }

    /// Reads and validates the dialect file at `path`; `${env.NAME}` comes from `environment`.
    package static func load(
        path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CustomDialectError) -> CustomDialect {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw CustomDialectError(path: path, message: "cannot read the dialect file")
        }
        return try parse(yaml: text, path: path, environment: environment)
    }

    /// Reads and validates a dialect from YAML text; `path` names it in errors.
    package static func parse(
        yaml: String,
        path: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CustomDialectError) -> CustomDialect {
        var loader = CustomDialectLoader(path: path, environment: environment)
        return try loader.dialect(yaml: yaml)
    }

    /// `.event` when `agent.speech_ended` or `turn.complete` is declared (`.eventOrAudioGap`
    /// with `timing.quiet_fallback`), else `.audioGap`.
    package var turnEndSignal: TurnEndSignal {
        guard rules.events.contains(where: { $0.name == .agentSpeechEnded || $0.name == .turnComplete }) else { return .audioGap }
        return quietFallback ? .eventOrAudioGap : .event
    }

    /// Whether `audio.output.extract` declares any agent audio.
    package var repliesWithAudio: Bool { !rules.extract.isEmpty }

    /// Raw binary audio, or the audio template built once when it uses nothing but the audio
    /// (shared by every connection); otherwise the base64 text, for a frame built per send.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        guard let template = templates.audio else {
            return PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
        }
        let base64 = Data(bytes).base64EncodedString()
        guard template.dependsOnlyOnAudio else { return PreparedAudio(base64: base64, byteCount: bytes.count) }
        let text = template.render(TemplateContext(audioBase64: base64))
        return PreparedAudio(sharedFrame: EncodedFrame(templates.frame(text)), byteCount: bytes.count)
    }

    /// A codec with this connection's counters (`${seq}`, `${chunk}`, `${ts_ms}`), captured
    /// variables and random generator (seeded from the system), reading the system clock for
    /// `${now_iso}`; `parameters` are `${session}`.
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        CustomClientCodec(dialect: self, parameters: parameters, entropy: .system())
    }
}
