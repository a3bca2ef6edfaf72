import Testing
import WSCore

@testable import VoiceLoad

@Suite("ADK server dialects (agent simulator side)")
struct ADKServerDialectTests {
    typealias Support = DialectTestSupport

    private func frames(_ output: AgentOutput, _ variant: ADKVariant) -> [JSONValue?] {
        var codec = ADKServerDialect(variant: variant).makeCodec(target: "/ws/1?is_audio=true")
        return codec.frames(for: output).map(Support.json)
    }

    private func expectMalformed(_ frame: WireFrame, _ variant: ADKVariant) {
        do {
            let intents = try ADKServerDialect.decode(frame, variant: variant)
            Issue.record("expected .malformed for \(frame), got \(intents)")
        } catch {
            guard case .malformed = error else {
                Issue.record("expected .malformed for \(frame), got \(error)")
                return
            }
        }
    }

    @Test(arguments: ADKVariant.allCases)
    func defaults(variant: ADKVariant) {
        let dialect = ADKServerDialect(variant: variant)
        #expect(dialect.id == variant.id)
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.sessionStart == .onOpen)
    }

    // MARK: decoding client frames

    @Test func seedAndLegacyDecodeJSONAudioAndText() throws {
        let bytes = Support.bytes(count: 1_600, seed: 13)
        for variant in [ADKVariant.seed, .legacy] {
            var codec = ADKServerDialect(variant: variant).makeCodec(target: "/ws/1?is_audio=true")
            let seed = #"{"mime_type":"audio/pcm","data":"\#(Support.base64(bytes))","role":"user"}"#
            #expect(try codec.receive(.text(seed)) == [.audio(bytes)])
            #expect(try codec.receive(.binary(Array(seed.utf8))) == [.audio(bytes)])
            #expect(try codec.receive(.text(#"{"mime_type":"audio/pcm","data":"AAEC"}"#)) == [.audio([0, 1, 2])])
            #expect(try codec.receive(.text(#"{"mime_type":"audio/pcm;rate=16000","data":""}"#)) == [])
            #expect(try codec.receive(.text(#"{"mime_type":"text/plain","data":"Hello"}"#)) == [.text("Hello")])
            #expect(throws: DialectDecodingError.unknownType("image/jpeg")) {
                try ADKServerDialect.decode(.text(#"{"mime_type":"image/jpeg","data":"AAEC"}"#), variant: variant)
            }
            #expect(throws: DialectDecodingError.unknownType("ping")) {
                try ADKServerDialect.decode(.text(#"{"type":"ping"}"#), variant: variant)
            }
            for frame: WireFrame in [
                .text("nope"), .binary([0, 1, 2, 3]), .text("[]"), .text(#"{"data":"AAEC"}"#),
                .text(#"{"mime_type":"audio/pcm"}"#), .text(#"{"mime_type":"audio/pcm","data":"%%"}"#),
                .text(#"{"mime_type":5,"data":"AAEC"}"#),
            ] {
                expectMalformed(frame, variant)
            }
        }
    }

    @Test func eventsDecodesBinaryPCMAndTextMessages() throws {
        var codec = ADKServerDialect(variant: .events).makeCodec(target: "/ws/u/s")
        let bytes = Support.bytes(count: 1_600, seed: 14)
        #expect(try codec.receive(.binary(bytes)) == [.audio(bytes)])
        #expect(try codec.receive(.binary([])) == [])
        #expect(try codec.receive(.text(#"{"type":"text","text":"Hello"}"#)) == [.text("Hello")])
        #expect(try codec.receive(.text(#"{"type":"image","data":"AAEC","mimeType":"image/jpeg"}"#)) == [])
        #expect(throws: DialectDecodingError.unknownType("video")) {
            try ADKServerDialect.decode(.text(#"{"type":"video"}"#), variant: .events)
        }
        for frame: WireFrame in [.text("nope"), .text(#"{"text":"hi"}"#), .text(#"{"type":"text"}"#), .text(#"{"type":1}"#)] {
            expectMalformed(frame, .events)
        }
    }

    // MARK: encoding agent output

    @Test func audioPerVariant() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0x00, 0x10]
        let expected: [ADKVariant: WireFrame] = [
            .seed: .text(#"{"mime_type":"audio/pcm","data":"+/+/ABA="}"#),
            .legacy: .text(#"{"mime_type":"audio/pcm","data":"+/+/ABA="}"#),
            .events: .text(
                #"{"author":"agent","content":{"parts":[{"inlineData":{"data":"-_-_ABA=","mimeType":"audio/pcm;rate=24000"}}],"role":"model"},"partial":true}"#
            ),
        ]
        for (variant, frame) in expected {
            let dialect = ADKServerDialect(variant: variant)
            var codec = dialect.makeCodec(target: "/")
            #expect(codec.frames(for: .audio(bytes)) == [frame], "\(variant)")
            #expect(EncodedFrameTestSupport.wireFrame(codec.audioFrame(dialect.prepareAudio(bytes))) == frame)
            #expect(EncodedFrameTestSupport.wireFrame(codec.audioFrame(PreparedAudio(base64: "+/+/ABA=", byteCount: 5))) == frame)
            #expect(Support.json(frame) != nil)
        }
    }

    @Test func turnCompleteAndInterruptedPerVariant() {
        #expect(frames(.turnComplete(turnKey: "t"), .seed) == [Support.json(#"{"turn_complete": true}"#)])
        #expect(frames(.turnComplete(turnKey: "t"), .legacy) == [Support.json(#"{"turn_complete": true, "interrupted": false}"#)])
        #expect(frames(.turnComplete(turnKey: "t"), .events) == [Support.json(#"{"author":"agent","turnComplete":true}"#)])
        for variant in [ADKVariant.seed, .legacy] {
            #expect(frames(.interrupted, variant) == [Support.json(#"{"turn_complete": false, "interrupted": true}"#)])
        }
        #expect(frames(.interrupted, .events) == [Support.json(#"{"author":"agent","interrupted":true}"#)])
    }

    @Test func transcriptsToolsAndErrorsWhereTheVariantHasThem() {
        let user = AgentOutput.transcript(TranscriptLine(role: "user", text: "Hi", isFinal: true))
        let agent = AgentOutput.transcript(TranscriptLine(role: "assistant", text: "Hel", isFinal: false))
        #expect(frames(user, .seed) == [Support.json(#"{"type":"input_transcription","finished":true,"data":"Hi"}"#)])
        #expect(frames(agent, .seed) == [Support.json(#"{"type":"output_transcription","finished":false,"data":"Hel"}"#)])
        #expect(frames(user, .events) == [Support.json(#"{"author":"user","inputTranscription":{"text":"Hi","finished":true}}"#)])
        #expect(frames(agent, .events) == [Support.json(#"{"author":"agent","outputTranscription":{"text":"Hel","finished":false}}"#)])
        #expect(frames(user, .legacy).isEmpty)
        let tool = AgentOutput.toolCall(name: "get_weather", status: "started")
        #expect(frames(tool, .seed) == [Support.json(#"{"type":"tool_use","tool_name":"get_weather","tool_args":{}}"#)])
        #expect(
            frames(tool, .events) == [
                Support.json(
                    #"{"author":"agent","content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{}}}]}}"#
                )
            ]
        )
        #expect(frames(tool, .legacy).isEmpty)
        let call = AgentOutput.toolCall(name: "get_weather", status: "started", id: "c1", arguments: #"{"city":"Oslo"}"#)
        #expect(frames(call, .seed) == [Support.json(#"{"type":"tool_use","tool_name":"get_weather","tool_args":{"city":"Oslo"}}"#)])
        #expect(
            frames(call, .events) == [
                Support.json(
                    #"{"author":"agent","content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"get_weather","args":{"city":"Oslo"}}}]}}"#
                )
            ]
        )
        let done = AgentOutput.toolCall(name: "get_weather", status: "completed", id: "c1", arguments: #"{"city":"Oslo"}"#)
        #expect(frames(done, .seed).isEmpty)
        #expect(
            frames(done, .events) == [
                Support.json(
                    #"{"author":"agent","content":{"role":"model","parts":[{"functionResponse":{"id":"c1","name":"get_weather","response":{}}}]}}"#
                )
            ]
        )
        #expect(
            frames(.error(code: nil, message: "boom"), .events) == [
                Support.json(#"{"author":"agent","errorCode":"INTERNAL","errorMessage":"boom"}"#)
            ]
        )
        #expect(frames(.error(code: nil, message: "boom"), .seed).isEmpty)
        #expect(frames(.error(code: nil, message: "boom"), .legacy).isEmpty)
    }

    @Test(arguments: ADKVariant.allCases)
    func outputsADKHasNoMessageForSendNothing(variant: ADKVariant) {
        let outputs: [AgentOutput] = [
            .connectionOpened(sessionID: "s"), .sessionStarted(sessionID: "s", conversationID: "c"), .ready,
            .userSpeechStarted(audioMs: 1), .userSpeechStopped(audioMs: 2), .agentTurnStarted(turnKey: "t", latencyMs: 3),
            .agentAudioDone(turnKey: "t"), .responseCancelled(turnKey: "t"), .utteranceEnd(lastWordEndS: 1),
            .speechResult(SpeechResult(text: "x", isFinal: true, speechFinal: true, startS: 0, durationS: 1)),
            .ended(transcript: []),
        ]
        for output in outputs {
            #expect(frames(output, variant).isEmpty, "\(output)")
        }
    }
}
