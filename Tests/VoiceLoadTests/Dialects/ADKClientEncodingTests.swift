import Testing
import WSClient
import WSCore

@testable import VoiceLoad

@Suite("ADK client dialects: configuration, encoding and endpoint")
struct ADKClientEncodingTests {
    typealias Support = DialectTestSupport

    @Test(arguments: ADKVariant.allCases)
    func defaultsMatchTheProtocol(variant: ADKVariant) {
        let dialect = ADKClientDialect(variant: variant)
        #expect(dialect.id == variant.rawValue)
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.readySignal == .onOpen)
        #expect(dialect.turnEndSignal == .event)
        #expect(dialect.authentication == .none)
        #expect(dialect.defaultFrameMs == 50)
        var codec = dialect.makeCodec(parameters: ["session_id": .string("42")])
        #expect(codec.framesOnOpen().isEmpty)
    }

    @Test func variantIds() {
        #expect(ADKVariant.allCases.map(\.id) == ["adk-seed", "adk-legacy", "adk-events"])
    }

    @Test func audioFramesPerVariant() {
        let bytes: [UInt8] = [0x00, 0x01, 0xFF, 0xFE, 0x10]
        let expected: [ADKVariant: WireFrame] = [
            .seed: .text(#"{"mime_type":"audio/pcm","data":"AAH//hA=","role":"user"}"#),
            .legacy: .text(#"{"mime_type":"audio/pcm","data":"AAH//hA="}"#),
            .events: .binary(bytes),
        ]
        for (variant, frame) in expected {
            let dialect = ADKClientDialect(variant: variant)
            #expect(dialect.encode(.audio(bytes)) == frame, "\(variant)")
            let prepared = dialect.prepareAudio(bytes)
            #expect(prepared.byteCount == 5)
            var codec = dialect.makeCodec(parameters: [:])
            #expect(EncodedFrameTestSupport.wireFrame(codec.audioFrame(prepared)) == frame, "\(variant)")
            #expect(EncodedFrameTestSupport.wireFrame(codec.audioFrame(PreparedAudio(base64: "AAH//hA=", byteCount: 5))) == frame)
            #expect(codec.frames(for: .audio(bytes)) == [frame])
        }
    }

    @Test func textPerVariant() {
        let text = "What's \"up\"? / \n 🎙"
        #expect(
            Support.json(ADKClientDialect(variant: .seed).encode(.text(text)))
                == .object(["mime_type": .string("text/plain"), "data": .string(text)])
        )
        #expect(
            Support.json(ADKClientDialect(variant: .legacy).encode(.text(text)))
                == .object(["mime_type": .string("text/plain"), "data": .string(text)])
        )
        #expect(
            Support.json(ADKClientDialect(variant: .events).encode(.text(text)))
                == .object(["type": .string("text"), "text": .string(text)])
        )
        #expect(Support.text(ADKClientDialect(variant: .events).encode(.text("hi"))) != nil)
    }

    @Test(arguments: ADKVariant.allCases)
    func stopAndOtherIntentsSendNothing(variant: ADKVariant) {
        var codec = ADKClientDialect(variant: variant).makeCodec(parameters: [:])
        let intents: [ClientIntent] = [
            .stop, .start(parameters: [:]), .interrupt, .commit, .keepAlive,
            .toolResult(callID: "c", name: "n", output: "o"), .markPlayed(name: "m"),
        ]
        for intent in intents {
            #expect(codec.frames(for: intent).isEmpty, "\(intent)")
        }
    }

    // MARK: endpoint

    private func endpoint(_ url: String, _ variant: ADKVariant, _ parameters: [String: JSONValue] = [:]) throws -> String {
        ADKClientDialect(variant: variant).endpoint(for: try WebSocketEndpoint(parsing: url), parameters: parameters).urlString
    }

    @Test func seedAndLegacyCompleteABareWsPath() throws {
        for variant in [ADKVariant.seed, .legacy] {
            #expect(try endpoint("wss://agent.example.com/ws", variant) == "wss://agent.example.com/ws/1?is_audio=true")
            #expect(try endpoint("ws://127.0.0.1:8000/ws/", variant) == "ws://127.0.0.1:8000/ws/1?is_audio=true")
            #expect(try endpoint("wss://h/ws", variant, ["session_id": .string("20261122")]) == "wss://h/ws/20261122?is_audio=true")
            #expect(try endpoint("wss://h/ws", variant, ["session_id": .number(77)]) == "wss://h/ws/77?is_audio=true")
            #expect(try endpoint("wss://h/ws?debug=1", variant) == "wss://h/ws/1?debug=1&is_audio=true")
        }
    }

    @Test func seedAndLegacyKeepAGivenIdAndIsAudio() throws {
        for variant in [ADKVariant.seed, .legacy] {
            #expect(try endpoint("wss://h/ws/123?is_audio=false", variant) == "wss://h/ws/123?is_audio=false")
            #expect(try endpoint("wss://h/ws/123", variant) == "wss://h/ws/123?is_audio=true")
            #expect(try endpoint("wss://h/ws?is_audio=true", variant) == "wss://h/ws/1?is_audio=true")
        }
    }

    @Test func sessionIdsThatAreNotDigitsFallBackToOne() throws {
        for parameters: [String: JSONValue] in [
            ["session_id": .string("abc")], ["session_id": .string("")], ["session_id": .number(-3)],
            ["session_id": .number(1.5)], ["session_id": .bool(true)],
        ] {
            #expect(try endpoint("wss://h/ws", .legacy, parameters) == "wss://h/ws/1?is_audio=true")
        }
    }

    @Test func eventsAppendsAUserAndASession() throws {
        #expect(try endpoint("ws://localhost:8000/ws", .events) == "ws://localhost:8000/ws/vload-user/1")
        #expect(try endpoint("ws://localhost:8000/ws/", .events, ["session_id": .string("9")]) == "ws://localhost:8000/ws/vload-user/9")
        #expect(try endpoint("wss://h/ws?proactivity=true", .events) == "wss://h/ws/vload-user/1?proactivity=true")
        #expect(try endpoint("wss://h/ws/alice/s1", .events) == "wss://h/ws/alice/s1")
        #expect(try endpoint("ws://[::1]:8000/ws", .events) == "ws://[::1]:8000/ws/vload-user/1")
    }
}
