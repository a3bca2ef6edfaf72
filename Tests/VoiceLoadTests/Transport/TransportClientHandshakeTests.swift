import NIOHTTP1
import Testing
import WSClient

@testable import VoiceLoad

@Suite("Transport client handshake")
struct TransportClientHandshakeTests {
    /// RFC 6455 §1.3's example key and its accept value.
    static let rfcKey = "dGhlIHNhbXBsZSBub25jZQ=="
    static let rfcAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    private func handshake(subprotocols: [String] = [], headers: [(String, String)] = []) throws -> WebSocketClientHandshake {
        WebSocketClientHandshake(
            endpoint: try WebSocketEndpoint(parsing: "wss://api.example.com:8443/v1?model=x"),
            headers: headers,
            subprotocols: subprotocols,
            requestKey: Self.rfcKey
        )
    }

    private func response(_ status: HTTPResponseStatus, _ headers: [(String, String)]) -> HTTPResponseHead {
        HTTPResponseHead(version: .http1_1, status: status, headers: HTTPHeaders(headers))
    }

    private var validHeaders: [(String, String)] {
        [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", Self.rfcAccept)]
    }

    @Test("the request carries target, Host, key, version, subprotocols and custom headers")
    func requestHead() throws {
        let head = try handshake(subprotocols: ["a", "b"], headers: [("Authorization", "Bearer t")]).requestHead()
        #expect(head.method == .GET)
        #expect(head.uri == "/v1?model=x")
        #expect(head.headers["Host"] == ["api.example.com:8443"])
        #expect(head.headers["Upgrade"] == ["websocket"])
        #expect(head.headers["Sec-WebSocket-Key"] == [Self.rfcKey])
        #expect(head.headers["Sec-WebSocket-Version"] == ["13"])
        #expect(head.headers["Sec-WebSocket-Protocol"] == ["a, b"])
        #expect(head.headers["Authorization"] == ["Bearer t"])
    }

    @Test("a caller's Host header replaces the default one")
    func hostOverride() throws {
        let head = try handshake(headers: [("host", "other.example")]).requestHead()
        #expect(head.headers["Host"] == ["other.example"])
    }

    @Test("a 101 with the right accept key is accepted")
    func accepts() throws {
        #expect(try handshake().evaluate(response(.switchingProtocols, validHeaders)) == .accepted(subprotocol: nil))
    }

    @Test("an offered subprotocol chosen by the server is reported; an unoffered one is refused")
    func subprotocols() throws {
        let offered = try handshake(subprotocols: ["realtime", "token.abc"])
        let chosen = validHeaders + [("Sec-WebSocket-Protocol", "realtime")]
        #expect(offered.evaluate(response(.switchingProtocols, chosen)) == .accepted(subprotocol: "realtime"))
        let unknown = validHeaders + [("Sec-WebSocket-Protocol", "other")]
        guard case .invalid = offered.evaluate(response(.switchingProtocols, unknown)) else {
            Issue.record("an unoffered subprotocol must be refused")
            return
        }
    }

    @Test("a wrong accept key, or a missing Upgrade header, is an invalid upgrade")
    func invalid101() throws {
        let wrongKey = [("Upgrade", "websocket"), ("Connection", "upgrade"), ("Sec-WebSocket-Accept", "bm9wZQ==")]
        #expect(try handshake().evaluate(response(.switchingProtocols, wrongKey)) == .invalid("missing or wrong Sec-WebSocket-Accept"))
        let noUpgrade = [("Connection", "upgrade"), ("Sec-WebSocket-Accept", Self.rfcAccept)]
        #expect(try handshake().evaluate(response(.switchingProtocols, noUpgrade)) == .invalid("101 without 'Upgrade: websocket'"))
    }

    @Test("any other status is a rejection with that status")
    func rejected() throws {
        #expect(try handshake().evaluate(response(.unauthorized, [])) == .rejected(status: 401))
        #expect(try handshake().evaluate(response(.tooManyRequests, [])) == .rejected(status: 429))
    }
}
