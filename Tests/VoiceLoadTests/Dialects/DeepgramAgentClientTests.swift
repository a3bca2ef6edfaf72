import Testing
import WSClient
import WSCore

@testable import VoiceLoad

@Suite("Deepgram Voice Agent client dialect (docs/dialects.md)")
struct DeepgramAgentClientTests {
    typealias Support = DialectTestSupport
    let dialect = DeepgramAgentClientDialect()

    func events(_ frame: WireFrame) -> [NormalizedEvent] {
        var codec = dialect.makeCodec(parameters: [:])
        let decoded = codec.receive(frame)
        return decoded.events
    }

    func frames(_ intent: ClientIntent) -> [WireFrame] {
        var codec = dialect.makeCodec(parameters: [:])
        return codec.frames(for: intent)
    }

    @Test func description() {
        #expect(dialect.id == "deepgram-agent")
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.readySignal == .event)
        #expect(dialect.turnEndSignal == .event)
        #expect(dialect.authentication == .header(name: "Authorization", prefix: "Token "))
        let base = try? WebSocketEndpoint(parsing: "wss://agent.deepgram.com/v1/agent/converse")
        #expect(base.map { dialect.endpoint(for: $0, parameters: ["settings": .object([:])]) } == base)
    }

    // MARK: session start

    @Test func sendsNothingBeforeWelcome() {
        var codec = dialect.makeCodec(parameters: ["settings": .object(["agent": .object([:])])])
        #expect(codec.framesOnOpen().isEmpty)
    }

    @Test func welcomeIsAnsweredWithSettingsAtOnce() throws {
        var codec = dialect.makeCodec(parameters: [:])
        let decoded = codec.receive(.text(#"{"type":"Welcome","request_id":"fc553ec9-5874-49ca-a47c-b670d525a4b1"}"#))
        #expect(decoded.events == [.sessionStarted(ids: ["request_id": "fc553ec9-5874-49ca-a47c-b670d525a4b1"])])
        let reply = try #require(decoded.replies.first)
        #expect(decoded.replies.count == 1)
        #expect(reply.timing == .immediately)
        #expect(Support.text(reply.frame) != nil)
        let expected = Support.json(
            #"""
            {"type":"Settings",
             "audio":{"input":{"encoding":"linear16","sample_rate":16000},
                      "output":{"encoding":"linear16","sample_rate":24000,"container":"none"}},
             "agent":{"listen":{"provider":{"type":"deepgram","model":"nova-3","language":"en"}},
                      "think":{"provider":{"type":"open_ai","model":"gpt-4o-mini"},
                               "prompt":"You are a helpful voice assistant. Keep your answers short."},
                      "speak":{"provider":{"type":"deepgram","model":"aura-2-thalia-en"}}}}
            """#
        )
        #expect(expected != nil)
        #expect(Support.json(reply.frame) == expected)
    }

    @Test func userSettingsAreSentWithOnlyTheAudioFormatsOverridden() throws {
        let user = try #require(
            Support.json(
                #"""
                {"type":"Whatever","experimental":true,"mip_opt_out":false,
                 "audio":{"input":{"encoding":"mulaw","sample_rate":8000},"output":{"encoding":"mp3","bitrate":48000},
                          "extra":{"keep":[1,"two",null]}},
                 "agent":{"language":"de","listen":{"model":"nova-2"},"think":{"provider":{"type":"anthropic"},"functions":[]},
                          "greeting":"Hallo \"du\"!"}}
                """#
            )
        )
        var codec = DeepgramAgentClientDialect(inputFormat: .pcm16(24_000)).makeCodec(parameters: ["settings": user, "other": .bool(true)])
        let reply = try #require(codec.receive(.text(#"{"type":"Welcome"}"#)).replies.first)
        #expect(
            Support.json(reply.frame)
                == Support.json(
                    #"""
                    {"type":"Settings","experimental":true,"mip_opt_out":false,
                     "audio":{"input":{"encoding":"linear16","sample_rate":24000},
                              "output":{"encoding":"linear16","sample_rate":24000,"container":"none"},
                              "extra":{"keep":[1,"two",null]}},
                     "agent":{"language":"de","listen":{"model":"nova-2"},"think":{"provider":{"type":"anthropic"},"functions":[]},
                              "greeting":"Hallo \"du\"!"}}
                    """#
                )
        )
    }

    @Test func welcomeWithoutRequestIDStillGetsSettings() {
        var codec = dialect.makeCodec(parameters: [:])
        let decoded = codec.receive(.text(#"{"type":"Welcome"}"#))
        #expect(decoded.events == [.sessionStarted(ids: [:])])
        #expect(decoded.replies.count == 1)
    }

    @Test func settingsAppliedIsReady() {
        var codec = dialect.makeCodec(parameters: [:])
        #expect(codec.receive(.text(#"{"type":"SettingsApplied"}"#)) == DecodedFrame(events: [.sessionReady]))
    }

    // MARK: server messages

    @Test func binaryFramesAreAgentAudioAt24kHz() {
        let silence = [UInt8](repeating: 0, count: 960)
        #expect(events(.binary(silence)) == [.agentAudio(AgentAudioChunk(byteCount: 960, durationUs: 20_000, rmsLevel: 0))])
        #expect(events(.binary([])) == [])
        // Binary is audio even when its bytes happen to be JSON.
        let json = Array(#"{"type":"SettingsApplied"}"#.utf8)
        #expect(events(.binary(json)) == [.agentAudio(AgentAudioChunk(audio: json, format: .pcm16(24_000)))])
    }

    @Test func userStartedSpeaking() {
        #expect(events(.text(#"{"type":"UserStartedSpeaking"}"#)) == [.userSpeechStarted])
    }

    @Test func agentStartedSpeakingReportsServerLatenciesInMs() {
        let frame = #"{"type":"AgentStartedSpeaking","total_latency":0.85,"tts_latency":0.34,"ttt_latency":0.51}"#
        #expect(
            events(.text(frame)) == [
                .agentSpeechStarted(turnKey: nil),
                .serverLatency(name: "server_total_latency_ms", valueUs: 850_000),
                .serverLatency(name: "server_tts_latency_ms", valueUs: 340_000),
                .serverLatency(name: "server_ttt_latency_ms", valueUs: 510_000),
            ]
        )
        #expect(events(.text(#"{"type":"AgentStartedSpeaking","tts_latency":null}"#)) == [.agentSpeechStarted(turnKey: nil)])
    }

    @Test func agentAudioDoneEndsTheTurn() {
        #expect(events(.text(#"{"type":"AgentAudioDone"}"#)) == [.agentSpeechEnded(turnKey: nil), .turnComplete(turnKey: nil)])
    }

    @Test func conversationTextIsAFinalTranscript() {
        #expect(
            events(.text(#"{"type":"ConversationText","role":"user","content":"What's the weather?"}"#))
                == [.transcript(role: "user", text: "What's the weather?", isFinal: true)]
        )
        #expect(
            events(.text(#"{"type":"ConversationText","role":"assistant","content":"Sunny."}"#))
                == [.transcript(role: "assistant", text: "Sunny.", isFinal: true)]
        )
        #expect(Support.isSingleMalformed(events(.text(#"{"type":"ConversationText","role":"user"}"#))))
    }

    @Test func latencyReportGivesEveryPresentLatencyInMs() {
        let frame =
            #"{"type":"LatencyReport","stt_latency":0.123,"ttt_token_latency":0.2,"ttt_text_latency":null,"#
            + #""tts_latency":0.0015,"total_latency":1.25}"#
        #expect(
            events(.text(frame)) == [
                .serverLatency(name: "server_stt_latency_ms", valueUs: 123_000),
                .serverLatency(name: "server_total_latency_ms", valueUs: 1_250_000),
                .serverLatency(name: "server_tts_latency_ms", valueUs: 1_500),
                .serverLatency(name: "server_ttt_token_latency_ms", valueUs: 200_000),
            ]
        )
    }

    @Test func functionCallRequestGivesOneToolCallPerFunction() {
        let frame =
            #"{"type":"FunctionCallRequest","functions":[{"id":"f1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}","client_side":true},"#
            + #"{"id":"f2","name":"lookup","arguments":"{}","client_side":false}]}"#
        #expect(
            events(.text(frame)) == [
                .toolCall(name: "get_weather", status: "requested", id: "f1", arguments: #"{"city":"Oslo"}"#),
                .toolCall(name: "lookup", status: "called", id: "f2", arguments: "{}"),
            ]
        )
        #expect(
            events(.text(#"{"type":"FunctionCallRequest","function_name":"old","function_call_id":"x","input":{"b":1,"a":"z"}}"#))
                == [.toolCall(name: "old", status: "requested", id: "x", arguments: #"{"a":"z","b":1}"#)]
        )
        #expect(Support.isSingleMalformed(events(.text(#"{"type":"FunctionCallRequest"}"#))))
        #expect(Support.isSingleMalformed(events(.text(#"{"type":"FunctionCallRequest","functions":[{"id":"f"}]}"#))))
    }

    @Test func errorIsFatalAndWarningIsNot() {
        #expect(
            events(.text(#"{"type":"Error","description":"Failed to parse settings","code":"INVALID_SETTINGS"}"#))
                == [.error(code: "INVALID_SETTINGS", message: "Failed to parse settings", fatal: true)]
        )
        #expect(
            events(.text(#"{"type":"Warning","description":"Slow think provider","code":"SLOW_THINK"}"#))
                == [.warning(code: "SLOW_THINK", message: "Slow think provider")]
        )
        #expect(events(.text(#"{"type":"Error","message":"old shape"}"#)) == [.error(code: nil, message: "old shape", fatal: true)])
    }

    @Test(arguments: [
        #"{"type":"AgentThinking","content":"Let me check."}"#, #"{"type":"PromptUpdated"}"#, #"{"type":"SpeakUpdated"}"#,
        #"{"type":"FunctionCallResponse","id":"f2","name":"lookup","content":"42"}"#,
        #"{"type":"History","role":"user","content":"hi"}"#, #"{"type":"InjectionRefused","message":"busy"}"#,
        #"{"type":"ThinkUpdated"}"#,
    ])
    func acknowledgementsCarryNoEvent(frame: String) {
        #expect(events(.text(frame)) == [])
    }

    @Test func cancelledFunctionCallsAreWithdrawn() {
        #expect(
            events(.text(#"{"type":"FunctionCallCancelled","functions":[{"id":"fc_1","name":"get_weather"},{"id":"fc_2","name":"book"}]}"#))
                == [
                    .toolCall(name: "get_weather", status: "cancelled", id: "fc_1"),
                    .toolCall(name: "book", status: "cancelled", id: "fc_2"),
                ]
        )
        #expect(Support.isSingleMalformed(events(.text(#"{"type":"FunctionCallCancelled"}"#))))
    }

    @Test(arguments: ["Results", "NewThing", "settingsapplied"])
    func unknownTypesAreCounted(type: String) {
        #expect(events(.text(#"{"type":"\#(type)"}"#)) == [.unknown(type: type)])
    }

    @Test(arguments: ["", "nope", "[]", #"{"type":null}"#, #"{"request_id":"x"}"#])
    func malformedTextIsReported(frame: String) {
        #expect(Support.isSingleMalformed(events(.text(frame))))
    }

    // MARK: client messages

    @Test func audioTravelsInBinaryFrames() {
        let bytes = Support.bytes(count: 640, seed: 2)
        #expect(frames(.audio(bytes)) == [.binary(bytes)])
        #expect(frames(.audio([])) == [])
        var codec = dialect.makeCodec(parameters: [:])
        #expect(codec.audioFrame(dialect.prepareAudio(bytes)).kind == .binary)
    }

    @Test func controlMessages() {
        #expect(frames(.keepAlive) == [.text(#"{"type":"KeepAlive"}"#)])
        #expect(
            Support.json(frames(.text("Book a table \"now\"")).first)
                == Support.json(#"{"type":"InjectUserMessage","content":"Book a table \"now\""}"#)
        )
        #expect(
            Support.json(frames(.toolResult(callID: "f1", name: "get_weather", output: #"{"temp":21}"#)).first)
                == Support.json(#"{"type":"FunctionCallResponse","id":"f1","name":"get_weather","content":"{\"temp\":21}"}"#)
        )
    }

    @Test(arguments: [ClientIntent.stop, .interrupt, .commit, .markPlayed(name: "m")])
    func intentsWithoutAMessageSendNothing(intent: ClientIntent) {
        #expect(frames(intent).isEmpty)
    }
}
