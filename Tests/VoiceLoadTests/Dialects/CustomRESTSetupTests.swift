import Testing
import WSClient

@testable import VoiceLoad

/// A custom dialect's `connect.pre_request` (docs/custom-dialects.md): where each session's REST
/// step goes, what it captures, and where the session then connects.
@Suite("Custom dialect: REST pre-step")
struct CustomRESTSetupTests {
    typealias Support = CustomDialectTestSupport

    static let environment = ["ACME_TOKEN": "tok"]
    static let scenario = Scenario(name: "rest", sourcePath: "rest.yaml", steps: [.connect(timeoutMs: 1_000)])

    /// An Acme-like protocol: the REST step opens a session whose id and URL later frames use.
    static func yaml(
        capture: String = #"{session_id: "$.id", ws_url: "$.url", greeting: "$.config.greeting"}"#,
        connectURL: String? = #""wss://voice.acme.test/agent/${var.session_id}?lang=en""#
    ) -> String {
        """
        dialect: acme
        connect:
          \(connectURL.map { "url: \($0)" } ?? "")
          pre_request:
            method: POST
            url: "https://api.acme.test/v1/sessions"
            headers: {Authorization: "Bearer ${env.ACME_TOKEN}"}
            json: {agent: "support"}
            capture: \(capture)
        audio:
          input: {encoding: pcm16le, sample_rate: 16000, transport: json,
                  json: {"type": "audio", "session": "${var.session_id}", "data": "${audio.b64}"}}
        send:
          on_open: [{"type": "start", "session": "${var.session_id}", "say": "${var.greeting:json}"}]
        """
    }

    func dialect(_ yaml: String = yaml()) throws -> CustomDialect {
        try CustomDialect.parse(yaml: yaml, path: "acme.yaml", environment: Self.environment)
    }

    func plan(_ dialect: CustomDialect, url: String) throws -> SessionPlan {
        try SessionPlanBuilder.build(scenario: Self.scenario, dialect: dialect, url: url, token: "ignored", frameMs: nil)
    }

    /// The REST address and request of a plan; nil when it goes straight to the WebSocket.
    func restTarget(_ plan: SessionPlan) -> (endpoint: HTTPEndpoint, request: RESTSetupRequest)? {
        guard case .rest(let endpoint, let request) = plan.target else { return nil }
        return (endpoint, request)
    }

    @Test func anHTTPURLIsWhereTheStepGoes() throws {
        let plan = try plan(dialect(), url: "http://127.0.0.1:8080/v1/sessions?k=1")
        let (endpoint, request) = try #require(restTarget(plan))
        #expect(endpoint == HTTPEndpoint(parsing: "http://127.0.0.1:8080/v1/sessions?k=1"))
        #expect(request.method == "POST")
        #expect(
            request.headers == [
                HTTPHeaderField(name: "Authorization", value: "Bearer tok"),
                HTTPHeaderField(name: "Content-Type", value: "application/json"),
            ],
            "the token travels only through ${env.NAME}"
        )
        #expect(DialectTestSupport.json(String(decoding: request.body, as: UTF8.self)) == .object(["agent": .string("support")]))
        #expect(request.webSocketURL == nil)
        #expect(plan.metricsMeasured.contains(.restSetupMs))
    }

    @Test func aWebSocketURLSendsTheStepToItsOwnAddress() throws {
        let plan = try plan(dialect(), url: "ws://127.0.0.1:9000/agent")
        let (endpoint, request) = try #require(restTarget(plan))
        #expect(endpoint == HTTPEndpoint(parsing: "https://api.acme.test/v1/sessions"))
        #expect(request.webSocketURL == "ws://127.0.0.1:9000/agent")
        #expect(plan.metricsMeasured.contains(.restSetupMs))
    }

    @Test func withoutAPreRequestNothingChanges() throws {
        let plain = try Support.dialect("connect: {url: \"wss://h/x\"}\n")
        guard case .webSocket(let endpoint) = try plan(plain, url: "ws://127.0.0.1:9000/a").target else {
            Issue.record("expected a direct WebSocket target")
            return
        }
        #expect(endpoint == (try WebSocketEndpoint(parsing: "ws://127.0.0.1:9000/a")))
        #expect(throws: InputError.self) { try plan(plain, url: "http://127.0.0.1:9000/a") }
        #expect(try DialectRegistry.client("datagrid").connectionTarget(url: "http://h/v1/voice", parameters: [:], token: nil) == nil)
    }

    @Test func aPlanWithNoWayToTheWebSocketIsRefused() throws {
        let noWay = try dialect(Self.yaml(capture: #"{session_id: "$.id", greeting: "$.g"}"#, connectURL: nil))
        let error = try #require(throws: InputError.self) { try plan(noWay, url: "http://127.0.0.1:8080/v1/sessions") }
        #expect(
            error.description == "acme.yaml: nothing names the WebSocket to connect to after pre_request: capture 'ws_url' "
                + "from its answer, set connect.url, or give a ws:// or wss:// --url"
        )
        // The run's own WebSocket URL is a way.
        #expect(restTarget(try plan(noWay, url: "wss://127.0.0.1:9000/agent")) != nil)
        // So is a complete connect.url, but not one that needs an unset variable.
        let unset = try dialect(Self.yaml(capture: #"{session_id: "$.id", greeting: "$.g"}"#, connectURL: #""wss://h/${env.ACME_HOST}""#))
        let unsetError = try #require(throws: InputError.self) { try plan(unset, url: "http://127.0.0.1:8080/v1/sessions") }
        #expect(unsetError.description == "acme.yaml: environment variable 'ACME_HOST' is not set (used by connect.url)")
        #expect(throws: InputError.self) { try plan(noWay, url: "ftp://127.0.0.1/x") }
    }

    @Test func theAnswerFeedsTheCodecAndNamesTheWebSocket() throws {
        let dialect = try dialect()
        let request = try #require(restTarget(try plan(dialect, url: "http://127.0.0.1:8080/v1/sessions"))).request
        let answer = #"{"id":"s-1","url":"wss://edge.acme.test/ws?token=t1","config":{"greeting":{"text":"hi"}}}"#
        let setup = try #require(dialect.restSetup(from: Array(answer.utf8), request: request))
        #expect(setup.webSocketURL == "wss://edge.acme.test/ws?token=t1")
        #expect(setup.openingFrames == nil, "the codec's own on_open, rendered with the captures")
        #expect(
            setup.variables == [
                "session_id": .string("s-1"), "ws_url": .string("wss://edge.acme.test/ws?token=t1"),
                "greeting": .object(["text": .string("hi")]),
            ]
        )
        var codec = dialect.makeCodec(parameters: [:])
        codec.adoptRESTSetup(setup)
        #expect(
            DialectTestSupport.json(codec.framesOnOpen().first)
                == .object([
                    "type": .string("start"), "session": .string("s-1"), "say": .object(["text": .string("hi")]),
                ])
        )
        let audio = Support.wireFrame(codec.audioFrame(dialect.prepareAudio([1, 0])))
        #expect(DialectTestSupport.json(audio) == .object(["type": .string("audio"), "session": .string("s-1"), "data": .string("AQA=")]))
        var other = dialect.makeCodec(parameters: [:])
        #expect(
            DialectTestSupport.json(other.framesOnOpen().first)
                == .object(["type": .string("start"), "session": .string(""), "say": .null]),
            "another session adopted nothing"
        )
    }

    @Test func withoutACapturedURLTheRunsURLThenConnectURLIsUsed() throws {
        let dialect = try dialect()
        let answer = Array(#"{"id":"s-2","url":null}"#.utf8)
        let atWebSocket = try #require(restTarget(try plan(dialect, url: "ws://127.0.0.1:9000/agent"))).request
        #expect(dialect.restSetup(from: answer, request: atWebSocket)?.webSocketURL == "ws://127.0.0.1:9000/agent")
        let atHTTP = try #require(restTarget(try plan(dialect, url: "http://127.0.0.1:8080/v1/sessions"))).request
        let setup = try #require(dialect.restSetup(from: answer, request: atHTTP))
        #expect(setup.webSocketURL == "wss://voice.acme.test/agent/s-2?lang=en")
        #expect(setup.variables == ["session_id": .string("s-2")], "a null capture leaves the variable unset")
    }

    @Test func answersThatLeadNowhereAreRejected() throws {
        let dialect = try dialect(Self.yaml(connectURL: nil))
        let request = try #require(restTarget(try plan(dialect, url: "http://127.0.0.1:8080/v1/sessions"))).request
        #expect(dialect.restSetup(from: Array("<html>busy</html>".utf8), request: request) == nil, "not JSON")
        #expect(dialect.restSetup(from: Array(#"{"id":"s-3"}"#.utf8), request: request) == nil, "no ws_url and nothing else")
        #expect(dialect.restSetup(from: Array(#"{"url":""}"#.utf8), request: request) == nil, "an empty ws_url is none")
        #expect(dialect.restSetup(from: Array(#"{"url":"ws://h/x"}"#.utf8), request: request)?.webSocketURL == "ws://h/x")
    }

    @Test func theShippedRESTDatagridFileReadsTheSimulatorsAnswer() throws {
        let path = Support.datagridPath.replacingOccurrences(of: "datagrid.yaml", with: "datagrid-rest.yaml")
        let dialect = try CustomDialect.load(path: path, environment: ["DATAGRID_API_KEY": "k"])
        let request = try #require(restTarget(try plan(dialect, url: "http://127.0.0.1:8080/v1/voice"))).request
        #expect(request.headers.first == HTTPHeaderField(name: "Authorization", value: "Bearer k"))
        let answer = try #require(
            DatagridServerDialect().restSessionResponse(
                requestBody: request.body,
                webSocketURL: "ws://127.0.0.1:8080/ws/voice?token=h1"
            )
        )
        let setup = try #require(dialect.restSetup(from: answer, request: request))
        #expect(setup.webSocketURL == "ws://127.0.0.1:8080/ws/voice?token=h1")
        var codec = dialect.makeCodec(parameters: [:])
        codec.adoptRESTSetup(setup)
        #expect(
            DialectTestSupport.json(codec.framesOnOpen().first)
                == .object(["type": .string("start"), "payload": .object(["ephemeral": .bool(true)])]),
            "start_message, verbatim"
        )
    }

    @Test func builtInCodecsIgnoreTheHandOff() throws {
        let datagrid = try DialectRegistry.client("datagrid")
        var codec = datagrid.makeCodec(parameters: ["agent_id": .string("a1")])
        let before = codec.framesOnOpen()
        codec.adoptRESTSetup(RESTSetup(webSocketURL: "ws://h/x", openingFrames: nil, variables: ["agent_id": .string("other")]))
        #expect(codec.framesOnOpen() == before)
        let request = try #require(datagrid.restSetupRequest(parameters: [:], token: "k"))
        let setup = try #require(datagrid.restSetup(from: Array(#"{"url":"ws://h/ws?token=t"}"#.utf8), request: request))
        #expect(setup.openingFrames == [], "Datagrid's answer replaces the opening frames, even with none")
        #expect(setup.variables == [:])
    }
}
