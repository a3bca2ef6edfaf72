import Testing

@testable import VoiceLoad

@Suite("OpenAI Realtime client dialect: decoding server events (docs/dialects.md)")
struct OpenAIRealtimeClientDecodingTests {
    typealias Support = DialectTestSupport

    private func decode(_ text: String) -> [NormalizedEvent] {
        var codec = OpenAIRealtimeClientCodec(dialect: OpenAIRealtimeClientDialect(), parameters: [:])
        return codec.receive(.text(text)).events
    }

    @Test func sessionCreatedStartsTheSessionOnly() {
        let events = decode(
            #"{"type":"session.created","event_id":"event_1","session":{"id":"sess_001","object":"realtime.session","type":"realtime","model":"gpt-realtime"}}"#
        )
        #expect(events == [.sessionStarted(ids: ["session_id": "sess_001"])])
        #expect(decode(#"{"type":"session.created"}"#) == [.sessionStarted(ids: [:])])
    }

    @Test func sessionUpdatedIsReady() {
        #expect(decode(#"{"type":"session.updated","session":{"type":"realtime"}}"#) == [.sessionReady])
    }

    @Test(arguments: ["response.output_audio.delta", "response.audio.delta"])
    func audioDeltaIsAgentAudioKeyedByResponseID(type: String) {
        let silence = [UInt8](repeating: 0, count: 960)
        let events = decode(
            #"{"type":"\#(type)","event_id":"event_7","response_id":"resp_001","item_id":"item_002","output_index":0,"content_index":0,"delta":"\#(Support.base64(silence))"}"#
        )
        #expect(events == [.agentAudio(AgentAudioChunk(byteCount: 960, durationUs: 20_000, rmsLevel: 0, turnKey: "resp_001"))])
    }

    @Test func audioDurationFollowsTheConfiguredRate() {
        var codec = OpenAIRealtimeClientCodec(dialect: OpenAIRealtimeClientDialect(sampleRateHz: 16_000), parameters: [:])
        let bytes = Support.bytes(count: 640, seed: 3)
        let events = codec.receive(.text(#"{"type":"response.output_audio.delta","response_id":"r","delta":"\#(Support.base64(bytes))"}"#))
            .events
        #expect(events == [.agentAudio(AgentAudioChunk(audio: bytes, format: .pcm16(16_000), turnKey: "r"))])
        #expect(AgentAudioChunk(audio: bytes, format: .pcm16(16_000)).durationUs == 20_000)
    }

    @Test func audioDeltaInABinaryFrame() {
        var codec = OpenAIRealtimeClientCodec(dialect: OpenAIRealtimeClientDialect(), parameters: [:])
        let bytes = Support.bytes(count: 480, seed: 4)
        let text = #"{"type":"response.output_audio.delta","response_id":"resp_9","delta":"\#(Support.base64(bytes))"}"#
        let events = codec.receive(.binary(Array(text.utf8))).events
        #expect(events == [.agentAudio(AgentAudioChunk(audio: bytes, format: .pcm16(24_000), turnKey: "resp_9"))])
    }

    @Test(arguments: [
        #"{"type":"response.output_audio.delta","response_id":"r","delta":""}"#,
        #"{"type":"response.output_audio.delta","response_id":"r"}"#,
        #"{"type":"response.audio.delta","response_id":"r","delta":null}"#,
    ])
    func deltaWithoutAudioYieldsNoEvent(frame: String) {
        #expect(decode(frame) == [])
    }

    @Test(arguments: [
        #"{"type":"response.output_audio.delta","response_id":"r","delta":"not base64!"}"#,
        #"{"type":"response.output_audio.delta","response_id":"r","delta":42}"#,
        #"{"type":"response.audio.delta","delta":["AAAA"]}"#,
    ])
    func badDeltaIsMalformed(frame: String) {
        #expect(Support.isSingleMalformed(decode(frame)))
    }

    @Test func responseCreatedStartsTheAgentTurn() {
        let events = decode(
            #"{"type":"response.created","event_id":"event_3","response":{"id":"resp_001","object":"realtime.response","status":"in_progress","status_details":null,"output":[]}}"#
        )
        #expect(events == [.agentSpeechStarted(turnKey: "resp_001")])
    }

    @Test(arguments: ["response.output_audio.done", "response.audio.done"])
    func audioDoneEndsTheAgentSpeech(type: String) {
        let events = decode(
            #"{"type":"\#(type)","event_id":"e","response_id":"resp_001","item_id":"item_002","output_index":0,"content_index":0}"#
        )
        #expect(events == [.agentSpeechEnded(turnKey: "resp_001")])
    }

    @Test func completedResponseDoneCompletesTheTurn() {
        let events = decode(
            #"{"type":"response.done","response":{"id":"resp_001","object":"realtime.response","status":"completed","status_details":null,"output":[],"usage":{"total_tokens":10}}}"#
        )
        #expect(events == [.turnComplete(turnKey: "resp_001")])
    }

    @Test func cancelledResponseDoneCompletesAndCancelsTheTurn() {
        let events = decode(
            #"{"type":"response.done","response":{"id":"resp_002","status":"cancelled","status_details":{"type":"cancelled","reason":"turn_detected"},"output":[]}}"#
        )
        #expect(events == [.responseCancelled(turnKey: "resp_002"), .turnComplete(turnKey: "resp_002")])
    }

    @Test func failedResponseDoneIsAlsoARecoverableError() {
        let events = decode(
            #"{"type":"response.done","response":{"id":"resp_3","status":"failed","status_details":{"type":"failed","error":{"type":"server_error","code":"overloaded","message":"busy"}}}}"#
        )
        #expect(events == [.turnComplete(turnKey: "resp_3"), .error(code: "overloaded", message: "busy", fatal: false)])
        #expect(
            decode(#"{"type":"response.done","response":{"id":"r","status":"failed"}}"#)
                == [.turnComplete(turnKey: "r"), .error(code: "response_failed", message: "", fatal: false)]
        )
    }

    @Test func incompleteResponseDoneOnlyCompletesTheTurn() {
        #expect(
            decode(
                #"{"type":"response.done","response":{"id":"r","status":"incomplete","status_details":{"type":"incomplete","reason":"max_output_tokens"}}}"#
            )
                == [.turnComplete(turnKey: "r")]
        )
    }

    @Test func serverVAD() {
        #expect(
            decode(#"{"type":"input_audio_buffer.speech_started","event_id":"e","audio_start_ms":1000,"item_id":"item_003"}"#) == [
                .userSpeechStarted
            ]
        )
        #expect(
            decode(#"{"type":"input_audio_buffer.speech_stopped","event_id":"e","audio_end_ms":2000,"item_id":"item_003"}"#) == [
                .userSpeechStopped
            ]
        )
    }

    @Test func inputTranscriptionIsTheUserTranscript() {
        #expect(
            decode(#"{"type":"conversation.item.input_audio_transcription.delta","item_id":"item_003","content_index":0,"delta":"Hel"}"#)
                == [.transcript(role: "user", text: "Hel", isFinal: false)]
        )
        #expect(
            decode(
                #"{"type":"conversation.item.input_audio_transcription.completed","item_id":"item_003","content_index":0,"transcript":"Hello, how are you?","usage":{"type":"duration","seconds":2}}"#
            )
                == [.transcript(role: "user", text: "Hello, how are you?", isFinal: true)]
        )
        #expect(
            decode(
                #"{"type":"conversation.item.input_audio_transcription.failed","item_id":"i","content_index":0,"error":{"type":"transcription_error","code":"audio_unintelligible","message":"no"}}"#
            )
                == [.error(code: "audio_unintelligible", message: "no", fatal: false)]
        )
    }

    @Test(arguments: [
        ("response.output_audio_transcript.delta", "delta", false),
        ("response.audio_transcript.delta", "delta", false),
        ("response.output_audio_transcript.done", "transcript", true),
        ("response.audio_transcript.done", "transcript", true),
        ("response.output_text.delta", "delta", false),
        ("response.text.delta", "delta", false),
        ("response.output_text.done", "text", true),
        ("response.text.done", "text", true),
    ])
    func agentTranscriptsInGAAndBetaSpelling(type: String, field: String, isFinal: Bool) {
        let events = decode(
            #"{"type":"\#(type)","response_id":"resp_1","item_id":"item_1","output_index":0,"content_index":0,"\#(field)":"Sure, I can help."}"#
        )
        #expect(events == [.transcript(role: "agent", text: "Sure, I can help.", isFinal: isFinal)])
    }

    @Test func functionCallArgumentsDoneRequestsATool() {
        #expect(
            decode(
                #"{"type":"response.function_call_arguments.done","response_id":"r","item_id":"fc_1","output_index":0,"call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\"}"}"#
            )
                == [.toolCall(name: "get_weather", status: "requested", id: "call_1", arguments: #"{"city":"Paris"}"#)]
        )
    }

    @Test func functionNameComesFromTheOutputItemWhenTheEventOmitsIt() {
        var codec = OpenAIRealtimeClientCodec(dialect: OpenAIRealtimeClientDialect(), parameters: [:])
        let added = codec.receive(
            .text(
                #"{"type":"response.output_item.added","response_id":"r","output_index":0,"item":{"id":"fc_1","type":"function_call","status":"in_progress","call_id":"call_1","name":"lookup_order","arguments":""}}"#
            )
        )
        #expect(added.events == [])
        let done = codec.receive(
            .text(
                #"{"type":"response.function_call_arguments.done","response_id":"r","item_id":"fc_1","output_index":0,"call_id":"call_1","arguments":"{}"}"#
            )
        )
        #expect(done.events == [.toolCall(name: "lookup_order", status: "requested", id: "call_1", arguments: "{}")])
        #expect(codec.functionNames.isEmpty)
        let unknown = codec.receive(.text(#"{"type":"response.function_call_arguments.done","call_id":"call_2","arguments":"{}"}"#))
        #expect(unknown.events == [.toolCall(name: "", status: "requested", id: "call_2", arguments: "{}")])
    }

    @Test func errorIsRecoverable() {
        #expect(
            decode(
                #"{"type":"error","event_id":"e","error":{"type":"invalid_request_error","code":"invalid_value","message":"Invalid value: 'x'.","param":"session.audio","event_id":"client_1"}}"#
            )
                == [.error(code: "invalid_value", message: "Invalid value: 'x'.", fatal: false)]
        )
        #expect(
            decode(#"{"type":"error","error":{"type":"server_error","code":null,"message":"oops"}}"#)
                == [.error(code: "server_error", message: "oops", fatal: false)]
        )
        #expect(decode(#"{"type":"error"}"#) == [.error(code: nil, message: "", fatal: false)])
    }

    @Test(arguments: [
        "conversation.item.added", "conversation.item.done", "conversation.item.created", "conversation.item.truncated",
        "conversation.item.deleted", "conversation.item.retrieved", "conversation.created",
        "response.output_item.added", "response.output_item.done",
        "response.content_part.added", "response.content_part.done", "response.function_call_arguments.delta",
        "rate_limits.updated", "input_audio_buffer.committed", "input_audio_buffer.cleared",
        "input_audio_buffer.timeout_triggered",
        "output_audio_buffer.started", "output_audio_buffer.stopped", "output_audio_buffer.cleared",
    ])
    func structuralEventsAreKnownAndIgnored(type: String) {
        #expect(decode(#"{"type":"\#(type)","event_id":"e","item":{"id":"item_1","type":"message"}}"#) == [])
    }

    @Test func unknownTypesAreCounted() {
        #expect(decode(#"{"type":"response.mcp_call.in_progress","event_id":"e"}"#) == [])  // a known MCP event
        #expect(decode(#"{"type":"response.future_thing","event_id":"e"}"#) == [.unknown(type: "response.future_thing")])
        #expect(decode(#"{"type":"session.closed"}"#) == [.unknown(type: "session.closed")])
    }

    @Test(arguments: [
        "", "not json", "[1,2]", #""session.updated""#, #"{"event_id":"e"}"#, #"{"type":7}"#, #"{"type":null}"#,
        #"{"type":"session.updated""#,
    ])
    func malformedFramesNeverCrash(frame: String) {
        #expect(Support.isSingleMalformed(decode(frame)))
    }

    @Test func malformedBinaryFrame() {
        var codec = OpenAIRealtimeClientCodec(dialect: OpenAIRealtimeClientDialect(), parameters: [:])
        #expect(Support.isSingleMalformed(codec.receive(.binary([0xFF, 0x00, 0x7B])).events))
        #expect(codec.receive(.binary(Array(#"{"type":"session.updated"}"#.utf8))).events == [.sessionReady])
    }

    @Test func eventsCarryNoReplies() {
        var codec = OpenAIRealtimeClientCodec(dialect: OpenAIRealtimeClientDialect(), parameters: [:])
        #expect(codec.receive(.text(#"{"type":"session.created","session":{"id":"s"}}"#)).replies.isEmpty)
    }
}
