import Foundation
import Testing
import WSClient

@testable import VoiceLoad

@Suite("Deepgram STT endpoint query (docs/dialects.md)")
struct DeepgramListenQueryTests {
    static let defaultQuery =
        "model=nova-3&encoding=linear16&sample_rate=16000&channels=1&interim_results=true&endpointing=300"
        + "&utterance_end_ms=1000&vad_events=true"

    func endpoint(
        _ url: String,
        _ parameters: [String: JSONValue] = [:],
        dialect: DeepgramSTTClientDialect = .init()
    ) throws -> WebSocketEndpoint {
        dialect.endpoint(for: try WebSocketEndpoint(parsing: url), parameters: parameters)
    }

    @Test func addsTheAudioFormatAndTurnTakingDefaults() throws {
        let endpoint = try endpoint("wss://api.deepgram.com/v1/listen")
        #expect(endpoint.query == Self.defaultQuery)
        #expect(endpoint.path == "/v1/listen")
        #expect(endpoint.host == "api.deepgram.com")
    }

    @Test func theModelIsNova3UnlessTheSessionNamesOne() throws {
        #expect(try endpoint("wss://api.deepgram.com/v1/listen").queryValue(named: "model") == "nova-3")
        let named = try endpoint("wss://api.deepgram.com/v1/listen", ["model": .string("nova-2-phonecall")])
        #expect(named.queryValue(named: "model") == "nova-2-phonecall")
        #expect(named.query?.components(separatedBy: "model=").count == 2)
    }

    @Test func formatFollowsTheInputFormat() throws {
        let mulaw = try endpoint("wss://api.deepgram.com/v1/listen", dialect: DeepgramSTTClientDialect(inputFormat: .mulaw8k))
        #expect(mulaw.queryValue(named: "encoding") == "mulaw")
        #expect(mulaw.queryValue(named: "sample_rate") == "8000")
        let wide = try endpoint("wss://api.deepgram.com/v1/listen", dialect: DeepgramSTTClientDialect(inputFormat: .pcm16(48_000)))
        #expect(wide.queryValue(named: "sample_rate") == "48000")
    }

    @Test func keepsWhatTheURLAlreadySays() throws {
        let endpoint = try endpoint(
            "wss://api.deepgram.com/v1/listen?model=nova-3&endpointing=500&vad_events=false",
            ["endpointing": .number(800), "model": .string("nova-2")]
        )
        #expect(
            endpoint.query == "model=nova-3&endpointing=500&vad_events=false&encoding=linear16&sample_rate=16000"
                + "&channels=1&interim_results=true&utterance_end_ms=1000"
        )
    }

    @Test func sessionParametersOverrideTheDefaults() throws {
        let endpoint = try endpoint(
            "wss://api.deepgram.com/v1/listen",
            [
                "endpointing": .number(500), "interim_results": .bool(false), "utterance_end_ms": .null,
                "vad_events": .string("false"), "sample_rate": .number(16_000),
            ]
        )
        #expect(
            endpoint.query == "model=nova-3&encoding=linear16&sample_rate=16000&channels=1&interim_results=false&endpointing=500"
                + "&vad_events=false"
        )
    }

    @Test func endpointingCanBeSwitchedOff() throws {
        let endpoint = try endpoint("wss://api.deepgram.com/v1/listen", ["endpointing": .bool(false)])
        #expect(endpoint.queryValue(named: "endpointing") == "false")
    }

    @Test func otherSessionParametersBecomeQueryItemsInNameOrder() throws {
        let endpoint = try endpoint(
            "ws://127.0.0.1:8080/v1/listen?",
            [
                "smart_format": .bool(true), "model": .string("nova-2"), "language": .string("en-US"),
                "keyterm": .array([.string("vload"), .string("load test")]), "numerals": .number(1),
                "ratio": .number(0.5), "options": .object(["a": .number(1)]), "nothing": .null,
            ]
        )
        // The session's model takes the default's place; the others follow in name order.
        #expect(
            endpoint.query == Self.defaultQuery.replacingOccurrences(of: "model=nova-3", with: "model=nova-2")
                + "&keyterm=vload&keyterm=load%20test&language=en-US&numerals=1&ratio=0.5&smart_format=true"
        )
        #expect(endpoint.queryValue(named: "keyterm") == "vload")
    }

    @Test func queryValueRendering() {
        #expect(DeepgramListenQuery.queryValues(.number(300)) == ["300"])
        #expect(DeepgramListenQuery.queryValues(.number(-2)) == ["-2"])
        #expect(DeepgramListenQuery.queryValues(.number(0.25)) == ["0.25"])
        #expect(DeepgramListenQuery.queryValues(.bool(true)) == ["true"])
        #expect(DeepgramListenQuery.queryValues(.array([.number(1), .array([.number(2)]), .null, .string("x")])) == ["1", "x"])
        #expect(DeepgramListenQuery.queryValues(.object([:])) == [])
    }

    @Test func serverReadsSwitchesFromTheTarget() {
        #expect(DeepgramListenQuery.isEnabled("vad_events", inTarget: "/v1/listen"))
        #expect(DeepgramListenQuery.isEnabled("vad_events", inTarget: "/v1/listen?vad_events=true"))
        #expect(DeepgramListenQuery.isEnabled("vad_events", inTarget: "/v1/listen?model=x"))
        #expect(!DeepgramListenQuery.isEnabled("vad_events", inTarget: "/v1/listen?a=1&vad_events=false"))
        #expect(!DeepgramListenQuery.isEnabled("vad_events", inTarget: "/v1/listen?vad_events=FALSE"))
        #expect(DeepgramListenQuery.isEnabled("endpointing", inTarget: "/v1/listen?endpointing=300"))
    }
}
