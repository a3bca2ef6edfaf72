import Testing
import WSClient
import WSCore

@testable import VoiceLoad

@Suite("Smallest Atoms client dialect: configuration, encoding and endpoint")
struct SmallestAtomsClientEncodingTests {
    typealias Support = DialectTestSupport
    let dialect = SmallestAtomsClientDialect()

    @Test func defaultsMatchTheProtocol() {
        #expect(dialect.id == "smallest-atoms")
        #expect(dialect.sampleRateHz == 24_000)
        #expect(dialect.inputFormat == .pcm16(24_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.readySignal == .event)
        #expect(dialect.turnEndSignal == .event)
        #expect(dialect.authentication == .header(name: "Authorization", prefix: "Bearer "))
        #expect(dialect.sendsJSONAsBinary == false)
    }

    @Test func theRateAppliesToBothDirections() {
        let slow = SmallestAtomsClientDialect(sampleRateHz: 16_000)
        #expect(slow.inputFormat == .pcm16(16_000))
        #expect(slow.outputFormat == .pcm16(16_000))
        #expect(SmallestAtomsClientDialect(sampleRateHz: nil).inputFormat == .pcm16(24_000))
    }

    @Test func sampleRateFromSessionParameters() {
        typealias Dialect = SmallestAtomsClientDialect
        #expect(Dialect.sampleRateHz(in: ["sample_rate": .number(16_000)]) == 16_000)
        #expect(Dialect.sampleRateHz(in: ["sample_rate": .string("8000")]) == 8_000)
        #expect(Dialect.sampleRateHz(in: [:]) == nil)
        #expect(Dialect.sampleRateHz(in: ["sample_rate": .number(16_000.5)]) == nil)
        #expect(Dialect.sampleRateHz(in: ["sample_rate": .number(-1)]) == nil)
        #expect(Dialect.sampleRateHz(in: ["sample_rate": .bool(true)]) == nil)
    }

    @Test func nothingIsSentOnOpen() {
        var codec = dialect.makeCodec(parameters: ["agent_id": .string("a")])
        #expect(codec.framesOnOpen().isEmpty)
    }

    @Test func audioIsTheAppendMessageOfSection5_3() {
        let expected = WireFrame.text(#"{"type":"input_audio_buffer.append","audio":"AAH//hA="}"#)
        #expect(dialect.encode(.audio([0x00, 0x01, 0xFF, 0xFE, 0x10])) == expected)
        let prepared = dialect.prepareAudio([0x00, 0x01, 0xFF, 0xFE, 0x10])
        #expect(prepared.byteCount == 5)
        #expect(EncodedFrameTestSupport.wireFrame(prepared.sharedFrame) == expected)
        var codec = dialect.makeCodec(parameters: [:])
        #expect(EncodedFrameTestSupport.wireFrame(codec.audioFrame(prepared)) == expected)
        let perSend = PreparedAudio(base64: "AAH//hA=", byteCount: 5)
        #expect(EncodedFrameTestSupport.wireFrame(codec.audioFrame(perSend)) == expected)
    }

    @Test func commitTextAndClose() {
        var codec = dialect.makeCodec(parameters: [:])
        #expect(codec.frames(for: .commit).map(Support.json) == [Support.json(#"{"type":"input_audio_buffer.commit"}"#)])
        #expect(
            codec.frames(for: .text("What's the weather?")).map(Support.json)
                == [Support.json(#"{"type":"input_text.send","text":"What's the weather?"}"#)]
        )
        #expect(codec.frames(for: .stop).map(Support.json) == [Support.json(#"{"type":"session.close"}"#)])
        #expect(codec.frames(for: .stop).allSatisfy { Support.text($0) != nil })
    }

    @Test(arguments: [
        ClientIntent.start(parameters: ["agent_id": .string("a")]), .interrupt, .keepAlive,
        .toolResult(callID: "c", name: "n", output: "o"), .markPlayed(name: "m"),
    ])
    func intentsSmallestHasNoMessageForSendNothing(intent: ClientIntent) {
        var codec = dialect.makeCodec(parameters: [:])
        #expect(codec.frames(for: intent).isEmpty)
        #expect(dialect.encode(intent) == nil)
    }

    @Test func textIsEscapedAsJSONRequires() {
        let tricky = "quote \" backslash \\ slash / newline \n é 🎙"
        #expect(
            Support.json(dialect.encode(.text(tricky)))
                == .object(["type": .string("input_text.send"), "text": .string(tricky)])
        )
    }

    @Test(arguments: [ClientIntent.audio([1, 2, 3]), .commit, .stop, .text("hi")])
    func binaryOptionSendsTheSameJSONInBinaryFrames(intent: ClientIntent) {
        let binary = SmallestAtomsClientDialect(sendsJSONAsBinary: true).encode(intent)
        guard case .binary(let bytes)? = binary, case .text(let string)? = dialect.encode(intent) else {
            Issue.record("expected a binary and a text frame for \(intent)")
            return
        }
        #expect(bytes == Array(string.utf8))
    }

    // MARK: endpoint

    private func endpoint(_ url: String, _ parameters: [String: JSONValue] = [:], rateHz: Int? = nil) throws -> String {
        let base = try WebSocketEndpoint(parsing: url)
        return SmallestAtomsClientDialect(sampleRateHz: rateHz).endpoint(for: base, parameters: parameters).urlString
    }

    @Test func endpointAddsAgentModeAndRate() throws {
        #expect(
            try endpoint("wss://api.smallest.ai/atoms/v1/agent/connect", ["agent_id": .string("agent 42")])
                == "wss://api.smallest.ai/atoms/v1/agent/connect?agent_id=agent%2042&mode=webcall&sample_rate=24000"
        )
        #expect(
            try endpoint("wss://api.smallest.ai/atoms/v1/agent/connect", rateHz: 16_000)
                == "wss://api.smallest.ai/atoms/v1/agent/connect?mode=webcall&sample_rate=16000"
        )
    }

    @Test func endpointKeepsWhatTheURLAlreadySays() throws {
        let url = "wss://api.smallest.ai/atoms/v1/agent/connect?agent_id=abc&mode=chat&sample_rate=8000"
        #expect(try endpoint(url, ["agent_id": .string("other")]) == url)
        #expect(
            try endpoint("ws://127.0.0.1:9000/connect?agent_id=abc")
                == "ws://127.0.0.1:9000/connect?agent_id=abc&mode=webcall&sample_rate=24000"
        )
    }

    @Test func endpointIgnoresAnAgentIdThatIsNotAString() throws {
        #expect(try endpoint("wss://h/c", ["agent_id": .number(5)]) == "wss://h/c?mode=webcall&sample_rate=24000")
    }
}
