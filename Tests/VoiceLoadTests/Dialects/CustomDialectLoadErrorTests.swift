import Testing

@testable import VoiceLoad

/// Every mistake in a dialect file is one line naming file:line:column, found at load time.
@Suite("Custom dialect: load errors")
struct CustomDialectLoadErrorTests {
    typealias Support = CustomDialectTestSupport

    /// The error of `head` + `body` (whose first line is line 4 of the file).
    func error(_ body: String, environment: [String: String] = [:]) -> CustomDialectError? {
        Support.loadError(Support.head + body, environment: environment)
    }

    @Test func descriptionNamesFileLineAndColumn() throws {
        let error = try #require(self.error("colour: blue\n"))
        #expect(
            error.description
                == "test.yaml:4:1: unknown key 'colour' in a dialect file (known: dialect, description, api_version, message_type, connect, audio, send, events, captures, ignore, timing; vload validate --keys lists every key)"
        )
        #expect(!error.description.contains("\n"))
    }

    @Test(
        arguments: [
            // (body, line, column, part of the message)
            ("send:\n  interupt: {\"type\": \"x\"}\n", 5, 3, "unknown key 'interupt' in 'send'"),
            ("events:\n  agent.talking: {match: {\"$.a\": 1}}\n", 5, 3, "unknown event 'agent.talking'"),
            ("events:\n  agent.audio: {match: {\"$.a\": 1}}\n", 5, 3, "agent audio is declared in audio.output.extract"),
            ("events:\n  session.ready: {match: {\"type\": ready}}\n", 5, 27, "bad matcher"),
            ("events:\n  session.ready: {match: {\"$.a[x]\": 1}}\n", 5, 27, "must be [*], [<index ≥ 0>] or ['<name>']"),
            ("events:\n  session.ready: {match: {\"$.a\": {regex: \"(\"}}}\n", 5, 42, "invalid regex"),
            ("events:\n  session.ready: {match: {\"$.a\": {equals: 1}}}\n", 5, 35, "unknown key 'equals'"),
            ("events:\n  session.ready: {match: {\"$.a\": [1, 2]}}\n", 5, 34, "use {in: [...]}"),
            ("events:\n  session.ready: {match: {}}\n", 5, 26, "needs at least one condition"),
            ("events:\n  session.ready: {match: {\"@frame\": blob}}\n", 5, 37, "'@frame' is 'text' or 'binary'"),
            ("events:\n  session.ready: {when: {\"$.a\": 1}}\n", 5, 19, "unknown key 'when'"),
            ("events:\n  transcript: {match: {\"$.a\": 1}, text: \"$.t\"}\n", 5, 15, "needs 'role'"),
            ("events:\n  transcript: {match: {\"$.a\": 1}, role: user, text: \"$.t\"}\n", 5, 41, "write {const: …}"),
            ("events:\n  error: {match: {\"$.a\": 1}, fatal: {const: yes please}}\n", 5, 45, "true or false"),
            ("send:\n  interrupt: {\"sid\": \"${var.sid}\"}\n", 5, 22, "unknown template variable '${var.sid}': no capture sets 'sid'"),
            ("send:\n  interrupt: {\"x\": \"${nope}\"}\n", 5, 20, "unknown template variable '${nope}'"),
            ("send:\n  interrupt: {\"a\": \"${audio.b64}\"}\n", 5, 20, "only allowed in audio.input.json"),
            ("send:\n  interrupt: {\"m\": \"${msg.x}\"}\n", 5, 20, "only allowed in send.replies"),
            ("send:\n  interrupt: {\"n\": \"x ${seq:int}\"}\n", 5, 20, "needs the placeholder to be the whole string value"),
            ("send:\n  interrupt: {\"n\": \"${seq:float}\"}\n", 5, 20, "unknown type suffix"),
            ("send:\n  interrupt: {\"n\": \"${seq\"}\n", 5, 20, "unclosed '${'"),
            ("send:\n  interrupt: {\"k\": \"${env.MISSING}\"}\n", 5, 20, "environment variable 'MISSING' is not set"),
            ("send:\n  interrupt: 42\n", 5, 14, "must be a JSON object or list, or a string of raw text"),
            ("send:\n  start_audio_on: ready\n", 5, 19, "needs a 'session.ready' rule"),
            ("send:\n  start_audio_on: later\n", 5, 19, "one of: ready, open"),
            ("send:\n  replies: [{on: {\"$.e\": m}}]\n", 5, 13, "a reply needs 'on' and 'json'"),
            ("send:\n  keepalive: {json: {}}\n", 5, 14, "needs 'every_ms' and 'json'"),
            ("connect:\n  headers: {Authorization: \"Bearer ${var.t}\"}\n", 5, 28, "only ${env.NAME} is allowed"),
            ("connect:\n  url: \"wss://h/${seq}\"\n", 5, 8, "connect.url may only use"),
            ("connect:\n  pre_request: {method: FETCH, url: \"https://x\"}\n", 5, 25, "one of: GET, POST"),
            ("connect:\n  pre_request: {url: \"wss://x/v1\"}\n", 5, 22, "'pre_request.url' must be an http:// or https:// URL"),
            ("captures:\n  - on: {\"$.type\": started}\n    set: {\"bad-name\": \"$.id\"}\n", 6, 11, "is not a variable name"),
            ("captures:\n  - on: {\"$.type\": started}\n    set: {sid: \"id\"}\n", 6, 16, "paths start with '$'"),
            ("timing: {quiet_ms: 0}\n", 4, 20, "'quiet_ms' must be a positive integer"),
            ("ignore: {\"$.a\": 1}\n", 4, 9, "'ignore' must be a list"),
            ("message_type: type\n", 4, 15, "bad path in 'message_type'"),
        ] as [(String, Int, Int, String)]
    )
    func errorsPointAtTheProblem(body: String, line: Int, column: Int, message: String) throws {
        let error = try #require(self.error(body), "\(body)")
        #expect(error.path == "test.yaml")
        #expect(error.line == line, "\(error)")
        #expect(error.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test(
        arguments: [
            ("audio:\n  input: {encoding: alaw16, sample_rate: 8000, transport: binary}\n", 3, "alaw"),
            (
                "audio:\n  input: {encoding: pcm16le, sample_rate: 16k, transport: binary}\n", 3,
                "'audio.input.sample_rate' must be a positive integer"
            ),
            ("audio:\n  input: {encoding: pcm16le, sample_rate: 16000, transport: json}\n", 3, "'transport: json' needs a 'json' template"),
            (
                "audio:\n  input: {encoding: pcm16le, sample_rate: 16000, transport: json, json: {\"a\": 1}}\n", 3,
                "must contain ${audio.b64}"
            ),
            (
                "audio:\n  input: {encoding: pcm16le, sample_rate: 16000, transport: binary, json: {}}\n", 3,
                "'json' is only for 'transport: json'"
            ),
            (
                "audio:\n  input: {encoding: pcm16le, sample_rate: 16000, transport: binary}\n  output: {encoding: pcm16le, sample_rate: 24000, extract: [{when: {\"$.t\": a}}]}\n",
                4, "its 'when' must require \"@frame\": binary"
            ),
            (
                "audio:\n  input: {encoding: pcm16le, sample_rate: 16000, transport: json, json: {\"d\": \"${audio.b64:json}\"}}\n", 3,
                "takes no type suffix"
            ),
        ] as [(String, Int, String)]
    )
    func audioErrors(body: String, line: Int, message: String) throws {
        let error = try #require(Support.loadError("dialect: t\n" + body), "\(body)")
        #expect(error.line == line, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func missingPiecesAndBrokenYAML() {
        #expect(Support.loadError("")?.description == "test.yaml: the dialect file is empty")
        #expect(Support.loadError("audio: {}\n")?.message.contains("missing key 'dialect'") == true)
        #expect(Support.loadError("dialect: t\n")?.message.contains("missing key 'audio'") == true)
        let broken = Support.loadError("dialect: t\naudio: {input: [}\n")
        #expect(broken?.message.hasPrefix("invalid YAML") == true)
        #expect(broken?.line == 2)
        #expect(Support.loadError("- a\n- b\n")?.message == "a dialect file must be a mapping")
        let missingFile = CustomDialectTestSupport.loadError("x")
        #expect(missingFile != nil)
    }

    @Test func unreadableFile() {
        do {
            _ = try CustomDialect.load(path: "/nonexistent/dialect.yaml", environment: [:])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/dialect.yaml: cannot read the dialect file")
        }
    }
}
