import Testing
import WSCore

@testable import VoiceLoad

@Suite("Smallest Atoms server dialect (agent simulator side)")
struct SmallestAtomsServerDialectTests {
    typealias Support = DialectTestSupport
    let dialect = SmallestAtomsServerDialect()

    @Test func defaults() {
        #expect(dialect.id == "smallest-atoms")
        #expect(dialect.inputFormat == .pcm16(24_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.sessionStart == .onOpen)
        #expect(dialect.speaks)
        #expect(SmallestAtomsServerDialect(sampleRateHz: 16_000).inputFormat == .pcm16(16_000))
    }

    // MARK: decoding client messages

    @Test func appendCarriesAudio() throws {
        var codec = dialect.makeCodec(target: "/atoms/v1/agent/connect?agent_id=a")
        let bytes = Support.bytes(count: 1_920, seed: 5)
        let frame = #"{"type":"input_audio_buffer.append","audio":"\#(Support.base64(bytes))"}"#
        #expect(try codec.receive(.text(frame)) == [.audio(bytes)])
        #expect(try codec.receive(.binary(Array(frame.utf8))) == [.audio(bytes)])
        #expect(try codec.receive(.text(#"{"type":"input_audio_buffer.append","audio":""}"#)) == [])
    }

    @Test func commitTextCloseAndUpdate() throws {
        var codec = dialect.makeCodec(target: "/")
        #expect(try codec.receive(.text(#"{"type":"input_audio_buffer.commit"}"#)) == [.commit])
        #expect(try codec.receive(.text(#"{"type":"input_text.send","text":"hello \"agent\""}"#)) == [.text("hello \"agent\"")])
        #expect(try codec.receive(.text(#"{"type":"session.close"}"#)) == [.stop])
        #expect(try codec.receive(.text(#"{"type":"session.update","session":{}}"#)) == [])
    }

    @Test func unknownTypeThrowsUnknownType() {
        #expect(throws: DialectDecodingError.unknownType("response.create")) {
            try SmallestAtomsServerDialect.decode(.text(#"{"type":"response.create"}"#))
        }
    }

    @Test(arguments: [
        WireFrame.text("nope"), .binary([0x00, 0x01]), .text("[]"), .text(#"{"audio":"AAEC"}"#),
        .text(#"{"type":"input_audio_buffer.append"}"#), .text(#"{"type":"input_audio_buffer.append","audio":"%%%"}"#),
        .text(#"{"type":"input_text.send"}"#),
    ])
    func malformedFramesThrowMalformed(frame: WireFrame) {
        do {
            let intents = try SmallestAtomsServerDialect.decode(frame)
            Issue.record("expected .malformed, got \(intents)")
        } catch {
            guard case .malformed = error else {
                Issue.record("expected .malformed, got \(error)")
                return
            }
        }
    }

    // MARK: encoding agent output

    @Test func readyIsSessionCreatedWithTheOpenedSessionsId() {
        var codec = dialect.makeCodec(target: "/")
        #expect(codec.frames(for: .connectionOpened(sessionID: "sim-7")).isEmpty)
        let frames = codec.frames(for: .ready)
        #expect(frames.count == 1)
        #expect(Support.text(frames.first) != nil)
        #expect(
            Support.json(frames.first)
                == Support.json(
                    #"{"type":"session.created","session_id":"sim-7","call_id":"CALL-sim-7","sample_rate":24000,"channels":1}"#
                )
        )
        var slow = SmallestAtomsServerDialect(sampleRateHz: 16_000).makeCodec(target: "/")
        _ = slow.frames(for: .connectionOpened(sessionID: "s"))
        #expect(
            Support.json(slow.frames(for: .ready).first)
                == Support.json(
                    #"{"type":"session.created","session_id":"s","call_id":"CALL-s","sample_rate":16000,"channels":1}"#
                )
        )
    }

    @Test func turnMessages() {
        var codec = dialect.makeCodec(target: "/")
        #expect(
            codec.frames(for: .agentTurnStarted(turnKey: "t1", latencyMs: 700)).map(Support.json)
                == [Support.json(#"{"type":"agent_start_talking"}"#)]
        )
        #expect(
            codec.frames(for: .turnComplete(turnKey: "t1")).map(Support.json)
                == [Support.json(#"{"type":"agent_stop_talking"}"#)]
        )
        #expect(codec.frames(for: .interrupted).map(Support.json) == [Support.json(#"{"type":"interruption"}"#)])
    }

    @Test func audioIsOutputAudioDelta() {
        var codec = dialect.makeCodec(target: "/")
        let expected = WireFrame.text(#"{"type":"output_audio.delta","audio":"AAH//hA="}"#)
        #expect(codec.frames(for: .audio([0x00, 0x01, 0xFF, 0xFE, 0x10])) == [expected])
        let prepared = dialect.prepareAudio([0x00, 0x01, 0xFF, 0xFE, 0x10])
        #expect(EncodedFrameTestSupport.wireFrame(codec.audioFrame(prepared)) == expected)
        #expect(EncodedFrameTestSupport.wireFrame(codec.audioFrame(PreparedAudio(base64: "AAH//hA=", byteCount: 5))) == expected)
    }

    @Test func transcriptsEndedAndErrors() {
        var codec = dialect.makeCodec(target: "/")
        #expect(
            codec.frames(for: .transcript(TranscriptLine(role: "user", text: "Hi."))).map(Support.json)
                == [Support.json(#"{"type":"transcript","role":"user","text":"Hi."}"#)]
        )
        #expect(
            codec.frames(for: .transcript(TranscriptLine(role: "agent", text: "Hel", isFinal: false))).map(Support.json)
                == [Support.json(#"{"type":"transcript.delta","role":"assistant","text":"Hel"}"#)]
        )
        #expect(
            codec.frames(for: .ended(transcript: [])).map(Support.json)
                == [Support.json(#"{"type":"session.closed","reason":"client_requested"}"#)]
        )
        #expect(
            codec.frames(for: .error(code: nil, message: "boom")).map(Support.json)
                == [Support.json(#"{"type":"error","code":"internal_error","message":"boom"}"#)]
        )
    }

    @Test(arguments: [
        AgentOutput.sessionStarted(sessionID: "s", conversationID: "c"), .userSpeechStarted(audioMs: 100),
        .userSpeechStopped(audioMs: 900), .agentAudioDone(turnKey: "t"), .responseCancelled(turnKey: "t"),
        .toolCall(name: "n", status: "s"), .utteranceEnd(lastWordEndS: 1),
        .speechResult(SpeechResult(text: "x", isFinal: true, speechFinal: true, startS: 0, durationS: 1)),
    ])
    func outputsSmallestHasNoMessageForSendNothing(output: AgentOutput) {
        var codec = dialect.makeCodec(target: "/")
        #expect(codec.frames(for: output).isEmpty)
    }
}
