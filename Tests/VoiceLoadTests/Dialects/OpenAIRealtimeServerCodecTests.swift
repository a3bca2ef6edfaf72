import Testing
import WSCore

@testable import VoiceLoad

@Suite("OpenAI Realtime server dialect: the simulator's side (docs/dialects.md)")
struct OpenAIRealtimeServerCodecTests {
    typealias Support = DialectTestSupport

    private func makeCodec() -> OpenAIRealtimeServerCodec {
        OpenAIRealtimeServerCodec(inputFormat: .pcm16(24_000), outputFormat: .pcm16(24_000))
    }

    @Test("a session asking for the removed beta interface is refused with 4000 beta_api_shape_disabled")
    func betaSessionsAreRefused() {
        let dialect = OpenAIRealtimeServerDialect()
        let refusal = ServerRefusal(code: 4000, reason: "beta_api_shape_disabled")
        #expect(dialect.refusal(requestHeaders: [("OpenAI-Beta", "realtime=v1")]) == refusal)
        #expect(dialect.refusal(requestHeaders: [("openai-beta", "assistants=v2, realtime=v1")]) == refusal)
        #expect(dialect.refusal(requestHeaders: [("Authorization", "Bearer k")]) == nil)
        #expect(dialect.refusal(requestHeaders: [("OpenAI-Beta", "assistants=v2")]) == nil)
        #expect(DatagridServerDialect().refusal(requestHeaders: [("OpenAI-Beta", "realtime=v1")]) == nil)
    }

    @Test func dialectDefaults() {
        let dialect = OpenAIRealtimeServerDialect()
        #expect(dialect.id == "openai-realtime")
        #expect(dialect.inputFormat == .pcm16(24_000) && dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.sessionStart == .onClientStart)
        #expect(dialect.speaks)
        let prepared = dialect.prepareAudio([1, 2, 3])
        #expect(prepared.sharedFrame == nil && prepared.base64 == "AQID" && prepared.byteCount == 3)
    }

    @Test func decodesTheClientEventsOfSection7_3() throws {
        var codec = makeCodec()
        let audio = Support.bytes(count: 1_920, seed: 2)
        #expect(
            try codec.receive(.text(#"{"type":"session.update","session":{"type":"realtime","instructions":"Hi"}}"#))
                == [.start(parameters: ["type": .string("realtime"), "instructions": .string("Hi")])]
        )
        #expect(try codec.receive(.text(#"{"type":"session.update"}"#)) == [.start(parameters: [:])])
        #expect(
            try codec.receive(.text(#"{"event_id":"c1","type":"input_audio_buffer.append","audio":"\#(Support.base64(audio))"}"#)) == [
                .audio(audio)
            ]
        )
        #expect(try codec.receive(.binary(Array(#"{"type":"input_audio_buffer.append","audio":"AQID"}"#.utf8))) == [.audio([1, 2, 3])])
        #expect(try codec.receive(.text(#"{"type":"input_audio_buffer.append","audio":""}"#)) == [])
        #expect(try codec.receive(.text(#"{"type":"input_audio_buffer.commit"}"#)) == [.commit])
        #expect(try codec.receive(.text(#"{"type":"input_audio_buffer.clear"}"#)) == [])
        #expect(try codec.receive(.text(#"{"type":"response.create","response":{}}"#)) == [])
        #expect(try codec.receive(.text(#"{"type":"response.cancel","response_id":"resp_1"}"#)) == [.interrupt])
        #expect(
            try codec.receive(.text(#"{"type":"conversation.item.truncate","item_id":"item_1","content_index":0,"audio_end_ms":1500}"#))
                == [.playbackTruncated(audioEndMs: 1_500)]
        )
        #expect(try codec.receive(.text(#"{"type":"output_audio_buffer.clear"}"#)) == [])
        #expect(
            try codec.receive(
                .text(
                    #"{"type":"conversation.item.create","item":{"type":"function_call_output","call_id":"call_9","output":"{\"ok\":true}"}}"#
                )
            )
                == [.toolResult(callID: "call_9", name: "", output: #"{"ok":true}"#)]
        )
        #expect(
            try codec.receive(
                .text(
                    #"{"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"Hello"},{"type":"input_text","text":" you"}]}}"#
                )
            )
                == [.text("Hello you")]
        )
        #expect(
            try codec.receive(
                .text(
                    #"{"type":"conversation.item.create","item":{"type":"message","role":"system","content":[{"type":"input_text","text":"x"}]}}"#
                )
            ) == []
        )
    }

    @Test func rejectsWhatIsNotAClientEvent() {
        var codec = makeCodec()
        #expect(throws: DialectDecodingError.unknownType("session.created")) {
            try codec.receive(.text(#"{"type":"session.created"}"#))
        }
        for frame in [
            "", "nope", "[]", #"{"audio":"AQID"}"#, #"{"type":1}"#,
            #"{"type":"input_audio_buffer.append"}"#, #"{"type":"input_audio_buffer.append","audio":"**"}"#,
            #"{"type":"session.update","session":[1]}"#, #"{"type":"conversation.item.create"}"#,
            #"{"type":"conversation.item.create","item":{"type":"function_call_output","output":"x"}}"#,
        ] {
            do {
                _ = try codec.receive(.text(frame))
                Issue.record("\(frame): expected an error")
            } catch {
                guard case .malformed = error else {
                    Issue.record("\(frame): expected malformed, got \(error)")
                    continue
                }
            }
        }
    }

    @Test func sessionEventsReportTheSessionAndAppliedUpdate() throws {
        var codec = makeCodec()
        let created = codec.frames(for: .connectionOpened(sessionID: "sim-1"))
        #expect(
            created.map { Support.json($0) } == [
                Support.json(
                    """
                    {"type":"session.created","session":{
                      "id":"sim-1","object":"realtime.session","model":"gpt-realtime","type":"realtime","output_modalities":["audio"],
                      "audio":{"input":{"format":{"type":"audio/pcm","rate":24000},
                                        "transcription":{"model":"gpt-4o-mini-transcribe"},"turn_detection":{"type":"server_vad"}},
                               "output":{"format":{"type":"audio/pcm","rate":24000}}}}}
                    """
                )
            ]
        )
        _ = try codec.receive(
            .text(
                #"{"type":"session.update","session":{"instructions":"Be brief.","audio":{"input":{"format":{"type":"audio/pcmu"},"turn_detection":null},"output":{"voice":"marin"}}}}"#
            )
        )
        #expect(codec.frames(for: .sessionStarted(sessionID: "sim-1", conversationID: "conv")) == [])
        #expect(
            codec.frames(for: .ready).map { Support.json($0) } == [
                Support.json(
                    """
                    {"type":"session.updated","session":{
                      "id":"sim-1","object":"realtime.session","model":"gpt-realtime","type":"realtime","output_modalities":["audio"],
                      "instructions":"Be brief.",
                      "audio":{"input":{"format":{"type":"audio/pcm","rate":24000},
                                        "transcription":{"model":"gpt-4o-mini-transcribe"},"turn_detection":null},
                               "output":{"format":{"type":"audio/pcm","rate":24000},"voice":"marin"}}}}
                    """
                )
            ]
        )
    }

    @Test func aTurnIsVADThenAResponseWithItsIDsOnEveryDelta() throws {
        var codec = makeCodec()
        let json = { (frames: [WireFrame]) in frames.map { Support.json($0) } }
        #expect(
            json(codec.frames(for: .userSpeechStarted(audioMs: 1_000))) == [
                Support.json(#"{"type":"input_audio_buffer.speech_started","audio_start_ms":1000,"item_id":"item_user_1"}"#)
            ]
        )
        #expect(
            json(codec.frames(for: .userSpeechStopped(audioMs: 2_480))) == [
                Support.json(#"{"type":"input_audio_buffer.speech_stopped","audio_end_ms":2480,"item_id":"item_user_1"}"#),
                Support.json(#"{"type":"input_audio_buffer.committed","item_id":"item_user_1","previous_item_id":null}"#),
            ]
        )
        #expect(
            json(codec.frames(for: .agentTurnStarted(turnKey: "resp_sim-1_1", latencyMs: 700))) == [
                Support.json(
                    #"{"type":"response.created","response":{"id":"resp_sim-1_1","object":"realtime.response","status":"in_progress","status_details":null,"output":[]}}"#
                )
            ]
        )
        let audio = Support.bytes(count: 960, seed: 8)
        let prepared = OpenAIRealtimeServerDialect().prepareAudio(audio)
        let expectedDelta =
            #"{"type":"response.output_audio.delta","response_id":"resp_sim-1_1","item_id":"item_resp_sim-1_1","output_index":0,"content_index":0,"delta":"\#(Support.base64(audio))"}"#
        #expect(Support.wireFrame(of: codec.audioFrame(prepared)) == .text(expectedDelta))
        #expect(codec.frames(for: .audio(audio)) == [.text(expectedDelta)])
        #expect(
            json(codec.frames(for: .agentAudioDone(turnKey: "resp_sim-1_1"))) == [
                Support.json(
                    #"{"type":"response.output_audio.done","response_id":"resp_sim-1_1","item_id":"item_resp_sim-1_1","output_index":0,"content_index":0}"#
                )
            ]
        )
        #expect(
            json(codec.frames(for: .turnComplete(turnKey: "resp_sim-1_1"))) == [
                Support.json(
                    #"{"type":"response.done","response":{"id":"resp_sim-1_1","object":"realtime.response","status":"completed","status_details":null,"output":[]}}"#
                )
            ]
        )
        // The next user turn's commit points back at the response's item.
        _ = codec.frames(for: .userSpeechStarted(audioMs: 5_000))
        #expect(
            json(codec.frames(for: .userSpeechStopped(audioMs: 6_000))).last
                == Support.json(
                    #"{"type":"input_audio_buffer.committed","item_id":"item_user_2","previous_item_id":"item_resp_sim-1_1"}"#
                )
        )
    }

    @Test func deltasFollowTheCurrentResponse() {
        var codec = makeCodec()
        let prepared = PreparedAudio(base64: "AAAA", byteCount: 3)
        _ = codec.frames(for: .agentTurnStarted(turnKey: "resp_1", latencyMs: 0))
        #expect(
            Support.json(Support.wireFrame(of: codec.audioFrame(prepared)))
                == Support.json(
                    #"{"type":"response.output_audio.delta","response_id":"resp_1","item_id":"item_resp_1","output_index":0,"content_index":0,"delta":"AAAA"}"#
                )
        )
        _ = codec.frames(for: .agentTurnStarted(turnKey: #"resp "2"\"#, latencyMs: 0))
        #expect(
            Support.json(Support.wireFrame(of: codec.audioFrame(prepared)))
                == Support.json(
                    #"{"type":"response.output_audio.delta","response_id":"resp \"2\"\\","item_id":"item_resp \"2\"\\","output_index":0,"content_index":0,"delta":"AAAA"}"#
                )
        )
    }

    @Test func bargeInCancelsTheResponse() {
        var codec = makeCodec()
        #expect(codec.frames(for: .interrupted) == [])
        #expect(
            codec.frames(for: .responseCancelled(turnKey: "resp_2")).map { Support.json($0) } == [
                Support.json(
                    #"{"type":"response.done","response":{"id":"resp_2","object":"realtime.response","status":"cancelled","status_details":{"type":"cancelled","reason":"turn_detected"},"output":[]}}"#
                )
            ]
        )
    }

    @Test func otherOutputs() {
        var codec = makeCodec()
        _ = codec.frames(for: .agentTurnStarted(turnKey: "resp_1", latencyMs: 0))
        #expect(
            codec.frames(for: .error(code: nil, message: "rate limited")).map { Support.json($0) } == [
                Support.json(
                    #"{"type":"error","error":{"type":"server_error","code":null,"message":"rate limited"}}"#
                )
            ]
        )
        #expect(
            codec.frames(for: .error(code: "simulated_fault", message: "injected fault")).map { Support.json($0) } == [
                Support.json(
                    #"{"type":"error","error":{"type":"server_error","code":"simulated_fault","message":"injected fault"}}"#
                )
            ]
        )
        #expect(
            codec.frames(for: .toolCall(name: "get_weather", status: "started")).map { Support.json($0) } == [
                Support.json(
                    #"{"type":"response.function_call_arguments.done","response_id":"resp_1","item_id":"item_call_1","output_index":0,"call_id":"call_1","name":"get_weather","arguments":"{}"}"#
                )
            ]
        )
        #expect(codec.functionNames == ["call_1": "get_weather"])
        for output in [
            AgentOutput.ended(transcript: []), .utteranceEnd(lastWordEndS: 1),
            .speechResult(SpeechResult(text: "x", isFinal: true, speechFinal: true, startS: 0, durationS: 1)),
        ] {
            #expect(codec.frames(for: output) == [])
        }
    }
}
