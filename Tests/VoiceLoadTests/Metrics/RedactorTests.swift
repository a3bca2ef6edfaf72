import Testing
import WSClient

@testable import VoiceLoad

@Suite("Redactor")
struct RedactorTests {
    private func plan(
        target: ConnectionTarget,
        headers: [HTTPHeaderField] = [],
        subprotocols: [String] = [],
        dialect: ScriptedDialect = ScriptedDialect(),
        parameters: [String: JSONValue] = [:]
    ) -> SessionPlan {
        let scenario = Scenario(name: "s", sourcePath: "s.yaml", sessionParameters: parameters, steps: [.connect(timeoutMs: 1)])
        return SessionPlan(
            scenario: scenario,
            target: target,
            headers: headers,
            subprotocols: subprotocols,
            dialect: dialect,
            tlsConfiguration: nil,
            frameSets: [:],
            silenceFrame: dialect.prepareAudio([0, 0]),
            frameMs: 40
        )
    }

    @Test("built from the plan: header values (and a Bearer key alone), subprotocols, secret query values")
    func fromWebSocketPlan() throws {
        let endpoint = try WebSocketEndpoint(parsing: "ws://127.0.0.1:9/ws?lang=en&access_token=tok%2F123&k=zz-77-key")
        var dialect = ScriptedDialect()
        dialect.authentication = .queryParameter(name: "k")
        let plan = plan(
            target: .webSocket(endpoint),
            headers: [HTTPHeaderField(name: "Authorization", value: "Bearer sk-abc-123"), HTTPHeaderField(name: "X-Shard", value: "7")],
            subprotocols: ["realtime", "openai-insecure-api-key.sk-proto-9"],
            dialect: dialect
        )
        let secrets = Set(plan.redactor.secrets)
        #expect(
            secrets == [
                "Bearer sk-abc-123", "sk-abc-123", "realtime", "openai-insecure-api-key.sk-proto-9", "tok%2F123", "tok/123", "zz-77-key",
            ]
        )
        #expect(plan.redactor.secrets.first == "openai-insecure-api-key.sk-proto-9")  // longest first
        let text = "401 for sk-abc-123 via openai-insecure-api-key.sk-proto-9 with tok/123 and zz-77-key, shard 7 lang en"
        #expect(plan.redactor.redact(text) == "401 for *** via *** with *** and ***, shard 7 lang en")
    }

    @Test("a REST plan: the request's credentials and URL query; a token sent as a session parameter")
    func fromRESTPlanAndSessionParameter() throws {
        let request = RESTSetupRequest(
            method: "POST",
            headers: [
                HTTPHeaderField(name: "Content-Type", value: "application/json"), HTTPHeaderField(name: "X-Api-Key", value: "rk-5555"),
            ],
            body: [],
            webSocketURL: "wss://agent.example/ws?token=ws-tok-1"
        )
        let rest = try #require(HTTPEndpoint(parsing: "https://api.example/v1/voice?client_secret=cs-42x"))
        let restPlan = plan(target: .rest(rest, request))
        #expect(Set(restPlan.redactor.secrets) == ["rk-5555", "cs-42x", "ws-tok-1"])

        var dialect = ScriptedDialect()
        dialect.authentication = .sessionParameter(name: "authToken")
        let twilio = plan(
            target: .webSocket(try WebSocketEndpoint(parsing: "ws://127.0.0.1:9/")),
            dialect: dialect,
            parameters: ["authToken": .string("tw-secret-1"), "other": .string("visible")]
        )
        #expect(twilio.redactor.secrets == ["tw-secret-1"])
    }

    @Test("generic rules: secret-looking name=value pairs and Bearer values, in any text")
    func genericRules() {
        let redactor = Redactor(secrets: [])
        #expect(redactor.redact("GET /ws?token=abc&lang=en&api_key=k-1 HTTP/1.1") == "GET /ws?token=***&lang=en&api_key=*** HTTP/1.1")
        #expect(redactor.redact("Authorization: bearer  eyJhbGciOi.x.y=, next") == "Authorization: bearer  ***, next")
        #expect(redactor.redact(#"{"client_secret=s3", "id_token=t"}"#) == #"{"client_secret=***", "id_token=***"}"#)
        #expect(redactor.redact("code=123 state=ok token=") == "code=123 state=ok token=")
        #expect(redactor.redact("unbearer x") == "unbearer x")
        // A word of prose after Bearer is no credential; anything with a digit, a capital or
        // punctuation, or longer than 16 letters, is masked.
        #expect(redactor.redact("HTTP 401: Bearer auth required") == "HTTP 401: Bearer auth required")
        #expect(redactor.redact("Bearer Token9, Bearer abc.def, Bearer qwertyuiopasdfghjk") == "Bearer ***, Bearer ***, Bearer ***")
        #expect(redactor.redact("bearer sk") == "bearer sk")
    }

    @Test("secrets shorter than 4 characters are not searched for")
    func shortValuesIgnored() {
        #expect(Redactor(secrets: ["7", "abc", "abcd"]).secrets == ["abcd"])
    }

    @Test("details: one line, at most 200 characters, each part cut after redaction")
    func details() {
        let redactor = Redactor(secrets: ["sk-0123456789"])
        let body = String(repeating: "b", count: 115) + "sk-0123456789" + String(repeating: "c", count: 300)
        let rejected = redactor.detail(.httpStatus(401, body: body)).text
        // The secret straddled the 120-character cut: masked whole, then cut.
        #expect(rejected == "HTTP 401: " + String(repeating: "b", count: 115) + "***c…")
        #expect(redactor.detail(.close(code: 1011, reason: "internal\nerror")).text == "close 1011: internal error")
        #expect(redactor.detail(.close(code: nil, reason: nil)).text == "closed without a close code")
        #expect(redactor.detail(.inBand(code: nil, message: "boom")).text == "no code: boom")
        let long = redactor.detail(.text(String(repeating: "z", count: 500))).text
        #expect(long.count == ErrorDetail.maxCharacters && long.hasSuffix("…"))
        let binary = redactor.detail(.frame(.binary(Array("{\"a\":1}\u{1}".utf8)), reason: "bad JSON")).text
        #expect(binary == "bad JSON (8 bytes): {\"a\":1} ")
    }
}
