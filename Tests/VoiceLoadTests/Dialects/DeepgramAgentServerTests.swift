import Testing
import WSCore

@testable import VoiceLoad

@Suite("Deepgram Voice Agent server dialect (agent simulator side)")
struct DeepgramAgentServerTests {
    typealias Support = DialectTestSupport
    let dialect = DeepgramAgentServerDialect()

    func decode(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        var codec = dialect.makeCodec(target: "/v1/agent/converse")
        return try codec.receive(frame)
    }

    func frames(_ outputs: [AgentOutput]) -> [WireFrame] {
        var codec = dialect.makeCodec(target: "/v1/agent/converse")
        return outputs.flatMap { codec.frames(for: $0) }
    }

    @Test func description() {
        #expect(dialect.id == "deepgram-agent")
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.sessionStart == .onClientStart)
        #expect(dialect.speaks)
    }

    // MARK: client messages

    @Test func settingsFromSection9_2IsTheStartIntentWithTheWholeObject() throws {
        let text = #"""
            {"type":"Settings","experimental":false,"mip_opt_out":false,
             "audio":{"input":{"encoding":"linear16","sample_rate":16000},
                      "output":{"encoding":"linear16","sample_rate":24000,"container":"none"}},
             "agent":{"language":"en",
                      "listen":{"provider":{"type":"deepgram","model":"nova-3"}},
                      "think":{"provider":{"type":"open_ai","model":"gpt-4o-mini"},"prompt":"…","functions":[]},
                      "speak":{"provider":{"type":"deepgram","model":"aura-2-thalia-en"}},
                      "greeting":"Hello!"}}
            """#
        guard case .object(let expected)? = Support.json(text) else {
            Issue.record("test JSON does not parse")
            return
        }
        #expect(try decode(.text(text)) == [.start(parameters: expected)])
    }

    @Test func binaryFramesAreAudio() throws {
        let bytes = Support.bytes(count: 640, seed: 4)
        #expect(try decode(.binary(bytes)) == [.audio(bytes)])
        #expect(try decode(.binary([])) == [])
    }

    @Test func controlMessagesFromSection9_3() throws {
        #expect(try decode(.text(#"{"type":"KeepAlive"}"#)) == [.keepAlive])
        #expect(try decode(.text(#"{"type":"InjectUserMessage","content":"Hi there"}"#)) == [.text("Hi there")])
        #expect(
            try decode(.text(#"{"type":"FunctionCallResponse","id":"f1","name":"get_weather","content":"sunny"}"#))
                == [.toolResult(callID: "f1", name: "get_weather", output: "sunny")]
        )
        #expect(
            try decode(.text(#"{"type":"FunctionCallResponse","id":"f1","content":"sunny"}"#))
                == [.toolResult(callID: "f1", name: "", output: "sunny")]
        )
    }

    @Test("mid-session updates carry no intent and are acknowledged once, as deepgram-sdk 7.16 pairs them")
    func updatesAreAcknowledged() throws {
        var codec = dialect.makeCodec(target: "/v1/agent/converse")
        let updates = [
            #"{"type":"UpdateThink","think":{"provider":{"type":"open_ai","model":"gpt-4o-mini"}}}"#,
            #"{"type":"UpdateThink","think":[{"provider":{"type":"open_ai","model":"gpt-4o-mini"}}]}"#,
            #"{"type":"UpdateListen","listen":{"provider":{"type":"deepgram","model":"flux-general-en"}}}"#,
            #"{"type":"UpdatePrompt","prompt":"Be brief."}"#,
            #"{"type":"UpdateSpeak","speak":{"provider":{"type":"deepgram","model":"aura-2-thalia-en"}}}"#,
        ]
        for update in updates { #expect(try codec.receive(.text(update)).isEmpty, "\(update)") }
        let types = codec.takeAcknowledgements().map { frame -> String? in
            guard case .object(let object)? = Support.json(frame) else { return nil }
            return object["type"]?.stringValue
        }
        #expect(types == ["ThinkUpdated", "ThinkUpdated", "ListenUpdated", "PromptUpdated", "SpeakUpdated"])
        #expect(codec.takeAcknowledgements().isEmpty)
        #expect(throws: DialectDecodingError.malformed("UpdateThink without think")) { try decode(.text(#"{"type":"UpdateThink"}"#)) }
    }

    @Test func unknownAndMalformedMessagesThrow() {
        #expect(throws: DialectDecodingError.unknownType("InjectAgentMessage")) {
            try decode(.text(#"{"type":"InjectAgentMessage","message":"x"}"#))
        }
        #expect(throws: DialectDecodingError.malformed("InjectUserMessage without content")) {
            try decode(.text(#"{"type":"InjectUserMessage","message":"x"}"#))
        }
        #expect(throws: DialectDecodingError.malformed("FunctionCallResponse without id or content")) {
            try decode(.text(#"{"type":"FunctionCallResponse","name":"x"}"#))
        }
        #expect(throws: DialectDecodingError.malformed("JSON is an array, not an object")) { try decode(.text("[]")) }
    }

    // MARK: server messages

    @Test func sessionStartMessages() {
        #expect(
            Support.json(frames([.connectionOpened(sessionID: "sim-1")]).first)
                == Support.json(#"{"type":"Welcome","request_id":"sim-1"}"#)
        )
        #expect(frames([.ready]) == [.text(#"{"type":"SettingsApplied"}"#)])
        #expect(frames([.userSpeechStarted(audioMs: 1_200)]) == [.text(#"{"type":"UserStartedSpeaking"}"#)])
    }

    @Test func agentTurnCarriesItsLatencyInSeconds() {
        let sent = frames([
            .agentTurnStarted(turnKey: "t1", latencyMs: 850), .audio([1, 2, 3, 4]), .agentAudioDone(turnKey: "t1"),
            .turnComplete(turnKey: "t1"), .turnComplete(turnKey: "t1"),
        ])
        #expect(sent.count == 4)
        #expect(
            Support.json(sent[0])
                == Support.json(#"{"type":"AgentStartedSpeaking","total_latency":0.85,"tts_latency":0.34,"ttt_latency":0.51}"#)
        )
        #expect(sent[1] == .binary([1, 2, 3, 4]))
        #expect(sent[2] == .text(#"{"type":"AgentAudioDone"}"#))
        #expect(Support.json(sent[3]) == Support.json(#"{"type":"LatencyReport","total_latency":0.85,"tts_latency":0.34}"#))
    }

    @Test func latencySplitAddsUp() {
        for latencyMs in [0, 1, 7, 333, 850, 1_999] {
            let split = DeepgramAgentServerCodec.split(latencyMs: latencyMs)
            #expect(((split.tttS + split.ttsS) * 1_000).rounded() == Double(latencyMs))
            #expect(split.totalS * 1_000 == Double(latencyMs))
        }
    }

    @Test func latencyReportOnlyForTheTurnThatStarted() {
        #expect(frames([.turnComplete(turnKey: "t9")]).isEmpty)
        #expect(frames([.agentTurnStarted(turnKey: "t1", latencyMs: 10), .turnComplete(turnKey: "t2")]).count == 1)
    }

    @Test func transcriptsAreConversationText() {
        #expect(
            Support.json(frames([.transcript(TranscriptLine(role: "agent", text: "Hi \"you\""))]).first)
                == Support.json(#"{"type":"ConversationText","role":"assistant","content":"Hi \"you\""}"#)
        )
        #expect(
            Support.json(frames([.transcript(TranscriptLine(role: "user", text: "hello"))]).first)
                == Support.json(#"{"type":"ConversationText","role":"user","content":"hello"}"#)
        )
        #expect(frames([.transcript(TranscriptLine(role: "user", text: "hel", isFinal: false))]).isEmpty)
    }

    @Test func toolCallsAreClientSideFunctionCallRequests() {
        #expect(
            Support.json(
                frames([.toolCall(name: "get_weather", status: "requested", id: "call_sim-1_1", arguments: #"{"city":"Oslo"}"#)]).first
            )
                == Support.json(
                    #"{"type":"FunctionCallRequest","functions":[{"id":"call_sim-1_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}","client_side":true}]}"#
                )
        )
        #expect(
            Support.json(frames([.toolCall(name: "n", status: "s")]).first)
                == Support.json(
                    #"{"type":"FunctionCallRequest","functions":[{"id":"fc_1","name":"n","arguments":"{}","client_side":true}]}"#
                )
        )
    }

    @Test func errorMessage() {
        #expect(
            Support.json(frames([.error(code: nil, message: "overloaded")]).first)
                == Support.json(#"{"type":"Error","description":"overloaded","code":"SIMULATED_ERROR"}"#)
        )
    }

    @Test(arguments: [
        AgentOutput.sessionStarted(sessionID: "s", conversationID: "c"), .userSpeechStopped(audioMs: 10), .interrupted,
        .responseCancelled(turnKey: "t"), .audio([]),
        .speechResult(SpeechResult(text: "x", isFinal: true, speechFinal: true, startS: 0, durationS: 1)),
        .utteranceEnd(lastWordEndS: 1), .ended(transcript: []),
    ])
    func outputsWithoutAMessageSendNothing(output: AgentOutput) {
        #expect(frames([output]).isEmpty)
    }

    @Test func preparedAudioIsASharedBinaryFrame() {
        let bytes = Support.bytes(count: 960, seed: 8)
        let prepared = dialect.prepareAudio(bytes)
        var codec = dialect.makeCodec(target: "/")
        let frame = codec.audioFrame(prepared)
        #expect(frame.kind == .binary)
        #expect(frame.payload.readableBytesView.elementsEqual(bytes))
    }
}
