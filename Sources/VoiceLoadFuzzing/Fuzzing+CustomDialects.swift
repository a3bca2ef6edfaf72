import Foundation
import VoiceLoad
import WSCore

extension Fuzzing {
    /// The custom dialect target: a dialect file either fails with one line starting with its
    /// name, or loads with sample rates in bounds, JSON templates that render JSON whatever the
    /// values they hold, and a codec that sends and decodes without breaking the decoder's bounds.
    static func customDialectParsing(_ yaml: String) -> FuzzOutcome {
        let dialect: CustomDialect
        do {
            dialect = try CustomDialect.parse(yaml: yaml, path: dialectPath, environment: FuzzDialects.environment)
        } catch {
            return rejected(error.description, naming: dialectPath + ":")
        }
        var outcome = FuzzOutcome()
        for format in [dialect.inputFormat, dialect.outputFormat] {
            outcome.check(
                (1...CustomDialectLoader.maxSampleRateHz).contains(format.sampleRateHz),
                "dialect loaded with a sample rate of \(format.sampleRateHz) Hz"
            )
        }
        outcome.violations += templateViolations(dialect)
        outcome.violations += checkClientDecoding(dialect: dialect, frames: sampleFrames).violations
        var codec = makeCodec(dialect, parameters: trickyObject)
        if let request = dialect.restSetupRequest(parameters: trickyObject, token: nil),
            let setup = dialect.restSetup(from: Array(sampleRESTAnswer.utf8), request: request)
        {
            codec.adoptRESTSetup(setup)
        }
        _ = codec.framesOnOpen()
        for intent in sampleIntents { _ = codec.frames(for: intent) }
        _ = codec.audioFrame(dialect.prepareAudio([0, 1, 2, 3, 4, 5, 6, 7]))
        return outcome
    }

    /// How the JSON templates of `dialect` render something that is not JSON, with every
    /// placeholder filled with awkward values (quotes, control characters, huge numbers, nested
    /// objects, null).
    static func templateViolations(_ dialect: CustomDialect) -> [String] {
        let templates = dialect.templates
        var all =
            templates.onOpen
            + [templates.audio, templates.interrupt, templates.commit, templates.keepAlive, templates.close, templates.text]
            .compactMap { $0 }
        all += dialect.rules.replies.map(\.template)
        var violations: [String] = []
        for template in all where template.isJSON {
            for (index, value) in trickyValues.enumerated() {
                let text = template.render(trickyContext(for: template, value: value, message: sampleFrames[index % sampleFrames.count]))
                if !isJSON(text) {
                    violations.append("a JSON template rendered text that is not JSON: \(text.prefix(200).debugDescription)")
                }
            }
        }
        return violations
    }

    private static func trickyContext(for template: MessageTemplate, value: JSONValue, message: WireFrame) -> TemplateContext {
        var variables: [String: JSONValue] = [:]
        for case .value(.captured(let name), _) in template.segments { variables[name] = value }
        var entropy = fixedEntropy
        return TemplateContext(
            audioBase64: "AAECAw==",
            seq: Int.max,
            chunk: 3,
            tsMs: 120,
            variables: variables,
            session: ["voice": value, "nested": trickyObject["nested"] ?? .null],
            message: InboundFrame(message, parsesBinaryAsJSON: true, needsRawText: true),
            text: "say \"hi\"\n\u{0}",
            generated: template.generated.map { entropy.value(of: $0) }
        )
    }

    /// Values that are hard to place in JSON text.
    static let trickyValues: [JSONValue] = [
        .string("quote \" backslash \\ newline \n nul \u{0} line separator \u{2028} é 𝄞"), .string(""), .string("12"),
        .number(1e300), .number(-0.5), .number(9_007_199_254_740_992), .number(42), .bool(true), .null,
        .array([.null, .string("}"), .object(["k\"": .string("]")])]), .object(["${var.x}": .number(-1e-300)]),
    ]

    static let trickyObject: [String: JSONValue] = [
        "voice": .string("sage\""), "nested": .object(["a": .array([.number(1), .null, .string("\u{1B}[0m")])]),
        "token": .string("t\"k"), "sample_rate": .number(1e300),
    ]

    /// Frames for a fuzzed dialect to decode: shapes its matchers might take, and non-JSON.
    static let sampleFrames: [WireFrame] = [
        .text(#"{"type":"audio","payload":{"data":"AAECAw==","chunks":[{"data":"AAEC"},{"data":null}],"turn":7}}"#),
        .text(#"{"type":"started","payload":{"session_id":"s\"1","count":3,"meta":{"a":[1e300]},"ready":true}}"#),
        .text(#"{"type":"transcript","payload":{"text":"hi","role":"user","final":false}}"#),
        .text(#"{"type":"ping","payload":{"nonce":"\u0000\"","n":"12"}}"#),
        .text(#"{"event":"media","media":{"payload":"AAAA","track":"outbound"},"mark":{"name":"m"}}"#),
        .text(#"[1,2,{"type":"x"}]"#), .text("null"), .text("not json"), .text(""),
        .binary([0x7B, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3A, 0x31, 0x7D]), .binary([0xFF, 0x00, 0x80]),
    ]

    /// Every kind of intent, with awkward values.
    static let sampleIntents: [ClientIntent] = [
        .start(parameters: trickyObject), .audio([1, 2, 3, 4]), .interrupt, .text("a \"b\"\n\u{0}"), .commit, .keepAlive,
        .toolResult(callID: "call\"1", name: "lookup", output: #"{"ok":true}"#), .playbackTruncated(audioEndMs: Int.max),
        .markPlayed(name: "turn\"1"), .stop,
    ]

    /// A REST pre-step answer with something for every capture of the fuzz dialects.
    static let sampleRESTAnswer = #"""
        {"url":"wss://example.invalid/ws/1","auth":{"token":"t\"1"},"start":{"type":"start","payload":{"a":[1,{"b":null}]}},
         "start_message":{"type":"start","payload":{"ephemeral":true}},"object":"voice.session"}
        """#
}
