import Testing
import WSCore

@testable import VoiceLoad

@Suite("Deepgram STT server dialect (agent simulator side)")
struct DeepgramSTTServerTests {
    typealias Support = DialectTestSupport
    let dialect = DeepgramSTTServerDialect()
    static let fullTarget =
        "/v1/listen?encoding=linear16&sample_rate=16000&channels=1&interim_results=true"
        + "&endpointing=300&utterance_end_ms=1000&vad_events=true"

    func decode(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        var codec = dialect.makeCodec(target: Self.fullTarget)
        return try codec.receive(frame)
    }

    func frames(_ outputs: [AgentOutput], target: String = fullTarget) -> [WireFrame] {
        var codec = dialect.makeCodec(target: target)
        return outputs.flatMap { codec.frames(for: $0) }
    }

    @Test func description() {
        #expect(dialect.id == "deepgram-stt")
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == .pcm16(16_000))
        #expect(dialect.sessionStart == .onOpen)
        #expect(dialect.speaks == false)
    }

    // MARK: client messages

    @Test func binaryFramesAreAudio() throws {
        let bytes = Support.bytes(count: 640, seed: 11)
        #expect(try decode(.binary(bytes)) == [.audio(bytes)])
        #expect(try decode(.binary([])) == [])
    }

    @Test func controlMessagesFromSection8_3() throws {
        #expect(try decode(.text(#"{"type":"KeepAlive"}"#)) == [.keepAlive])
        #expect(try decode(.text(#"{"type":"Finalize"}"#)) == [.commit])
        #expect(try decode(.text(#"{"type":"Finalize","channel":0}"#)) == [.commit])
        #expect(try decode(.text(#"{"type":"CloseStream"}"#)) == [.stop])
    }

    @Test func unknownAndMalformedMessagesThrow() {
        #expect(throws: DialectDecodingError.unknownType("Settings")) { try decode(.text(#"{"type":"Settings"}"#)) }
        #expect(throws: DialectDecodingError.malformed("not JSON")) { try decode(.text("hello")) }
        #expect(throws: DialectDecodingError.malformed("message has no \"type\"")) { try decode(.text("{}")) }
    }

    // MARK: server messages

    @Test func resultsHaveTheFullShapeOfSection8_3() throws {
        let result = SpeechResult(text: "Hello, world!", isFinal: true, speechFinal: true, startS: 1.02, durationS: 1.5)
        let sent = frames([.connectionOpened(sessionID: "sim-7"), .speechResult(result)])
        #expect(sent.count == 1)
        let expected = Support.json(
            #"""
            {"type":"Results","channel_index":[0,1],"start":1.02,"duration":1.5,"is_final":true,"speech_final":true,
             "from_finalize":false,"channel":{"alternatives":[{"transcript":"Hello, world!","confidence":0.98,"words":[
               {"word":"hello","start":1.02,"end":1.77,"confidence":0.99,"punctuated_word":"Hello,"},
               {"word":"world","start":1.77,"end":2.52,"confidence":0.99,"punctuated_word":"world!"}]}]},
             "metadata":{"request_id":"sim-7","model_info":{"name":"vload-simulator","version":"1","arch":"simulated"},
                         "model_uuid":"00000000-0000-0000-0000-000000000000"}}
            """#
        )
        #expect(expected != nil)
        #expect(Support.json(sent.first) == expected)
        #expect(Support.text(sent.first) != nil)
    }

    @Test("the Results prepared for a transcript serve every result of it, in every session of the dialect")
    func preparedResultsFollowEachResultAndSession() throws {
        let final = SpeechResult(text: "Hello, world!", isFinal: true, speechFinal: true, startS: 1.02, durationS: 1.5)
        let interim = SpeechResult(text: "Hello, world!", isFinal: false, speechFinal: false, startS: 1.02, durationS: 0.5)
        let other = SpeechResult(text: "Bye", isFinal: true, speechFinal: false, startS: 3, durationS: 0.4, fromFinalize: true)
        var first = dialect.makeCodec(target: Self.fullTarget)
        var second = dialect.makeCodec(target: Self.fullTarget)
        _ = first.frames(for: .connectionOpened(sessionID: "sim-1"))
        _ = second.frames(for: .connectionOpened(sessionID: "sim-2"))
        let sent = [
            first.frames(for: .speechResult(final)), second.frames(for: .speechResult(interim)),
            second.frames(for: .speechResult(other)), second.frames(for: .speechResult(final)),
        ]
        .map(\.first)
        let client = DeepgramSTTClientCodec()
        let decoded = sent.map { $0.flatMap { client.events(in: $0).first } }
        #expect(decoded == [.speechResult(final), .speechResult(interim), .speechResult(other), .speechResult(final)])
        // The words spread over each result's own span, under each session's request id.
        let hello = [("hello", "Hello,", 1.02, 1.27), ("world", "world!", 1.27, 1.52)]
        #expect(Self.channel(of: sent[1]) == Self.channel("Hello, world!", words: hello))
        #expect(Self.channel(of: sent[2]) == Self.channel("Bye", words: [("bye", "Bye", 3, 3.4)]))
        #expect(sent.map(Self.requestID(of:)) == ["sim-1", "sim-2", "sim-2", "sim-2"])
    }

    /// The `channel` of a `Results` frame.
    static func channel(of frame: WireFrame?) -> JSONValue? {
        guard case .object(let message)? = Support.json(frame) else { return nil }
        return message["channel"]
    }

    /// The `metadata.request_id` of a `Results` frame.
    static func requestID(of frame: WireFrame?) -> String? {
        guard case .object(let message)? = Support.json(frame), case .object(let metadata)? = message["metadata"],
            case .string(let id)? = metadata["request_id"]
        else { return nil }
        return id
    }

    /// The `channel` of a `Results` for `transcript` with these words (word, punctuated, start, end).
    static func channel(_ transcript: String, words: [(String, String, Double, Double)]) -> JSONValue {
        let objects = words.map { word, punctuated, startS, endS -> JSONValue in
            .object([
                "word": .string(word), "start": .number(startS), "end": .number(endS), "confidence": .number(0.99),
                "punctuated_word": .string(punctuated),
            ])
        }
        let alternative: JSONValue = .object(["transcript": .string(transcript), "confidence": .number(0.98), "words": .array(objects)])
        return .object(["alternatives": .array([alternative])])
    }

    @Test func emptyResultHasNoWordsAndNoConfidence() throws {
        let sent = frames([.speechResult(SpeechResult(text: "", isFinal: true, speechFinal: false, startS: .nan, durationS: 0.3))])
        guard case .object(let message)? = Support.json(sent.first),
            case .object(let channel)? = message["channel"],
            case .array(let alternatives)? = channel["alternatives"],
            case .object(let metadata)? = message["metadata"]
        else {
            Issue.record("not a Results message: \(sent)")
            return
        }
        #expect(alternatives == [.object(["transcript": .string(""), "confidence": .number(0), "words": .array([])])])
        #expect(message["start"] == .number(0))
        #expect(message["duration"] == .number(0.3))
        #expect(metadata["request_id"] == .string("vload-simulator"))
    }

    @Test func interimResultsAreDroppedWhenTheQueryTurnsThemOff() {
        let interim = SpeechResult(text: "hel", isFinal: false, speechFinal: false, startS: 0, durationS: 0.5)
        let final = SpeechResult(text: "hello", isFinal: true, speechFinal: false, startS: 0, durationS: 0.5)
        #expect(frames([.speechResult(interim), .speechResult(final)]).count == 2)
        #expect(frames([.speechResult(interim), .speechResult(final)], target: "/v1/listen").count == 2)
        let sent = frames([.speechResult(interim), .speechResult(final)], target: "/v1/listen?interim_results=false")
        #expect(sent.count == 1)
        #expect(DeepgramSTTClientCodec().events(in: sent[0]).first == .speechResult(final))
    }

    @Test func speechFinalIsClearedWhenEndpointingIsOff() {
        let result = SpeechResult(text: "hello", isFinal: true, speechFinal: true, startS: 0, durationS: 0.5)
        let sent = frames([.speechResult(result)], target: "/v1/listen?endpointing=false")
        var expected = result
        expected.speechFinal = false
        #expect(sent.flatMap { DeepgramSTTClientCodec().events(in: $0) }.first == .speechResult(expected))
    }

    @Test func speechStartedCarriesTheAudioPositionInSeconds() {
        let sent = frames([.userSpeechStarted(audioMs: 9_540)])
        #expect(Support.json(sent.first) == Support.json(#"{"type":"SpeechStarted","channel":[0,1],"timestamp":9.54}"#))
        #expect(frames([.userSpeechStarted(audioMs: 9_540)], target: "/v1/listen?vad_events=false").isEmpty)
    }

    @Test func utteranceEndFromSection8_3() {
        let sent = frames([.utteranceEnd(lastWordEndS: 2.395)])
        #expect(Support.json(sent.first) == Support.json(#"{"type":"UtteranceEnd","channel":[0,1],"last_word_end":2.395}"#))
    }

    @Test func metadataReportsTheAudioReceived() throws {
        var codec = dialect.makeCodec(target: Self.fullTarget)
        _ = codec.frames(for: .connectionOpened(sessionID: "sim-3"))
        _ = try codec.receive(.binary([UInt8](repeating: 0, count: 32_000)))
        _ = try codec.receive(.binary([UInt8](repeating: 0, count: 16_000)))
        let sent = codec.frames(for: .ended(transcript: []))
        #expect(
            Support.json(sent.first)
                == Support.json(
                    #"""
                    {"type":"Metadata","transaction_key":"deprecated","request_id":"sim-3",
                     "sha256":"0000000000000000000000000000000000000000000000000000000000000000",
                     "created":"1970-01-01T00:00:00.000Z","duration":1.5,"channels":1}
                    """#
                )
        )
    }

    @Test(arguments: [
        AgentOutput.connectionOpened(sessionID: "s"), .sessionStarted(sessionID: "s", conversationID: "c"), .ready,
        .userSpeechStopped(audioMs: 10), .agentTurnStarted(turnKey: "t", latencyMs: 5), .audio([1, 2]),
        .agentAudioDone(turnKey: "t"), .turnComplete(turnKey: "t"), .interrupted, .responseCancelled(turnKey: "t"),
        .toolCall(name: "n", status: "s"), .transcript(TranscriptLine(role: "user", text: "x")), .error(code: nil, message: "e"),
    ])
    func outputsWithoutAMessageSendNothing(output: AgentOutput) {
        #expect(frames([output]).isEmpty)
    }

    @Test func preparedAudioIsABinaryFrame() {
        let prepared = dialect.prepareAudio([1, 2, 3, 4])
        var codec = dialect.makeCodec(target: "/")
        #expect(codec.audioFrame(prepared).kind == .binary)
        #expect(prepared.byteCount == 4)
    }
}
