import Testing
import VoiceLoad
import WSClient

@Suite("Transport endpoint")
struct TransportEndpointTests {
    struct ParseCase: Sendable, CustomTestStringConvertible {
        var url: String
        var scheme: WebSocketEndpoint.Scheme
        var host: String
        var port: Int
        var target: String
        var testDescription: String { url }
    }

    static let valid: [ParseCase] = [
        ParseCase(
            url: "ws://localhost:8080/v1/realtime?model=x",
            scheme: .ws,
            host: "localhost",
            port: 8080,
            target: "/v1/realtime?model=x"
        ),
        ParseCase(url: "wss://api.example.com", scheme: .wss, host: "api.example.com", port: 443, target: "/"),
        ParseCase(url: "ws://127.0.0.1", scheme: .ws, host: "127.0.0.1", port: 80, target: "/"),
        ParseCase(url: "ws://[::1]:9000/a/b", scheme: .ws, host: "::1", port: 9000, target: "/a/b"),
        ParseCase(url: "WSS://Host.Example/path", scheme: .wss, host: "Host.Example", port: 443, target: "/path"),
        ParseCase(url: "ws://h?token=abc", scheme: .ws, host: "h", port: 80, target: "/?token=abc"),
        ParseCase(url: "wss://h:443/", scheme: .wss, host: "h", port: 443, target: "/"),
    ]

    @Test("valid URLs parse into scheme, host, port and request target", arguments: valid)
    func parsesValid(_ testCase: ParseCase) throws {
        let endpoint = try WebSocketEndpoint(parsing: testCase.url)
        #expect(endpoint.scheme == testCase.scheme)
        #expect(endpoint.host == testCase.host)
        #expect(endpoint.port == testCase.port)
        #expect(endpoint.requestTarget == testCase.target)
        #expect(endpoint.isSecure == (testCase.scheme == .wss))
    }

    static let malformed: [(String, EndpointError)] = [
        ("http://x", .unsupportedScheme(url: "http://x", scheme: "http")),
        ("ws://", .missingHost(url: "ws://")),
        ("not a url", .missingScheme(url: "not a url")),
        ("ws:///path", .missingHost(url: "ws:///path")),
        ("ws://h:0", .invalidPort(url: "ws://h:0", port: "0")),
        ("ws://h:70000", .invalidPort(url: "ws://h:70000", port: "70000")),
        ("ws://h:abc/x", .invalidPort(url: "ws://h:abc/x", port: "abc")),
        ("ws://h:/x", .invalidPort(url: "ws://h:/x", port: "")),
        ("ws://user:pw@h/", .userInfoNotSupported(url: "ws://user:pw@h/")),
        ("ws://h/x#frag", .fragmentNotAllowed(url: "ws://h/x#frag")),
        ("ws://h /x", .invalidCharacter(url: "ws://h /x")),
        ("ws://a:b:c/", .invalidHost(url: "ws://a:b:c/", host: "a:b:c")),
        ("ws://ex!ample.com/", .invalidHost(url: "ws://ex!ample.com/", host: "ex!ample.com")),
    ]

    @Test("malformed URLs are refused with the right error", arguments: malformed)
    func refusesMalformed(_ url: String, _ expected: EndpointError) {
        #expect(throws: expected) { try WebSocketEndpoint(parsing: url) }
    }

    @Test("error descriptions are one line and name the problem")
    func errorDescriptions() {
        #expect(
            EndpointError.unsupportedScheme(url: "http://x", scheme: "http").description
                == "malformed URL 'http://x': scheme must be ws or wss, not 'http'"
        )
        #expect(EndpointError.missingHost(url: "ws://").description == "malformed URL 'ws://': host is missing")
        #expect(
            EndpointError.missingScheme(url: "not a url").description
                == "malformed URL 'not a url': missing scheme (expected ws:// or wss://)"
        )
    }

    @Test("an error about a URL with a token does not show the token")
    func errorRedactsSecrets() {
        do {
            _ = try WebSocketEndpoint(parsing: "http://h/?token=hunter2&x=1")
            Issue.record("expected an error")
        } catch {
            #expect(!error.description.contains("hunter2"))
            #expect(error.description.contains("token=REDACTED&x=1"))
        }
    }

    static let redactions: [(String, String)] = [
        ("wss://h/v1?token=abc&model=gpt", "wss://h/v1?token=REDACTED&model=gpt"),
        ("wss://h/?API_KEY=abc", "wss://h/?API_KEY=REDACTED"),
        ("wss://h/?apikey=abc&key=def", "wss://h/?apikey=REDACTED&key=REDACTED"),
        (
            "wss://h/?access_token=a&auth=b&password=c&secret=d",
            "wss://h/?access_token=REDACTED&auth=REDACTED&password=REDACTED&secret=REDACTED"
        ),
        ("wss://h/?x-api-key=a&client_secret=b&authToken=c", "wss://h/?x-api-key=REDACTED&client_secret=REDACTED&authToken=REDACTED"),
        ("wss://h/?monkey=1&model=x&flag", "wss://h/?monkey=1&model=x&flag"),
        ("ws://h:8080/path", "ws://h:8080/path"),
        ("wss://h/?tok%65n=abc", "wss://h/?tok%65n=REDACTED"),
    ]

    @Test("secret query values are redacted, everything else kept", arguments: redactions)
    func redaction(_ url: String, _ expected: String) throws {
        let endpoint = try WebSocketEndpoint(parsing: url)
        #expect(endpoint.redactedDescription == expected)
        #expect(endpoint.description == expected)
    }

    @Test("the full URL keeps the secret for the wire")
    func urlStringKeepsSecret() throws {
        let endpoint = try WebSocketEndpoint(parsing: "wss://h/v1?token=abc")
        #expect(endpoint.urlString == "wss://h/v1?token=abc")
        #expect(endpoint.hostHeader == "h")
        #expect(try WebSocketEndpoint(parsing: "ws://[::1]:81/").hostHeader == "[::1]:81")
    }

    @Test("an http URL's IPv6 literal is kept bare, bracketed again in the Host header and the description")
    func httpIPv6Literal() throws {
        let endpoint = try #require(HTTPEndpoint(parsing: "http://[::1]:7860/api/offer"))
        #expect(endpoint.host == "::1")
        #expect(endpoint.port == 7860)
        #expect(endpoint.hostHeader == "[::1]:7860")
        #expect(endpoint.description == "http://[::1]:7860/api/offer")
        #expect(HTTPEndpoint(parsing: "http://127.0.0.1:7860/")?.host == "127.0.0.1")
    }

    @Test("a query item is appended percent-encoded and redacted in descriptions")
    func addingQueryItem() throws {
        let plain = try WebSocketEndpoint(parsing: "wss://h/v1")
        let withToken = plain.addingQueryItem(name: "token", value: "a b&c=d")
        #expect(withToken.requestTarget == "/v1?token=a%20b%26c%3Dd")
        #expect(withToken.queryValue(named: "token") == "a b&c=d")
        #expect(withToken.redactedDescription == "wss://h/v1?token=REDACTED")

        let withQuery = try WebSocketEndpoint(parsing: "wss://h/v1?model=x").addingQueryItem(name: "api_key", value: "k")
        #expect(withQuery.requestTarget == "/v1?model=x&api_key=k")
        #expect(withQuery.queryValue(named: "model") == "x")
    }
}
