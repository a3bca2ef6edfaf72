import Testing
import WSCore

@testable import VoiceLoad

@Suite("Smallest Atoms client dialect: decoding server messages")
struct SmallestAtomsClientDecodingTests {
    typealias Support = DialectTestSupport
    let dialect = SmallestAtomsClientDialect()

    @Test func sessionCreatedFromSection5_2StartsAndReadiesTheSession() {
        let frame = #"{"type":"session.created","session_id":"sess_1","call_id":"CALL-1732","sample_rate":24000,"channels":1}"#
        #expect(
            dialect.decode(.text(frame)) == [
                .sessionStarted(ids: ["session_id": "sess_1", "call_id": "CALL-1732"]), .sessionReady,
            ]
        )
    }

    @Test func sessionCreatedWithoutIdsIsStillReady() {
        #expect(dialect.decode(.text(#"{"type":"session.created"}"#)) == [.sessionStarted(ids: [:]), .sessionReady])
    }

    @Test func outputAudioDeltaIsAgentAudioAtTheNegotiatedRate() {
        let bytes = Support.bytes(count: 4_800, seed: 3)
        let frame = #"{"type":"output_audio.delta","audio":"\#(Support.base64(bytes))"}"#
        let expected = NormalizedEvent.agentAudio(AgentAudioChunk(audio: bytes, format: .pcm16(24_000)))
        #expect(dialect.decode(.text(frame)) == [expected])
        guard case .agentAudio(let chunk) = expected else { return }
        #expect(chunk.durationUs == 100_000)
        let slow = SmallestAtomsClientDialect(sampleRateHz: 16_000)
        #expect(slow.decode(.text(frame)) == [.agentAudio(AgentAudioChunk(audio: bytes, format: .pcm16(16_000)))])
    }

    @Test func emptyOrMissingAudioCarriesNoEvent() {
        #expect(dialect.decode(.text(#"{"type":"output_audio.delta","audio":""}"#)) == [])
        #expect(dialect.decode(.text(#"{"type":"output_audio.delta"}"#)) == [])
        #expect(dialect.decode(.text(#"{"type":"output_audio.delta","audio":null}"#)) == [])
    }

    @Test func agentTalkingFramesTheTurn() {
        #expect(
            dialect.decode(.text(#"{"type":"agent_start_talking","timestamp":"2026-11-22T10:00:00.000Z"}"#))
                == [.agentSpeechStarted(turnKey: nil)]
        )
        #expect(dialect.decode(.text(#"{"type":"agent_start_talking"}"#)) == [.agentSpeechStarted(turnKey: nil)])
        #expect(
            dialect.decode(.text(#"{"type":"agent_stop_talking","timestamp":"2026-11-22T10:00:02.000Z"}"#))
                == [.agentSpeechEnded(turnKey: nil), .turnComplete(turnKey: nil)]
        )
    }

    @Test func interruption() {
        #expect(dialect.decode(.text(#"{"type":"interruption"}"#)) == [.agentInterrupted])
    }

    @Test func transcriptDeltaIsCumulativeAndNotFinal() {
        #expect(
            dialect.decode(.text(#"{"type":"transcript.delta","role":"user","text":"What is the"}"#))
                == [.transcript(role: "user", text: "What is the", isFinal: false)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"transcript.delta","role":"user","text":"What is the weather"}"#))
                == [.transcript(role: "user", text: "What is the weather", isFinal: false)]
        )
    }

    @Test func transcriptIsFinalAndAgentReadsAsAssistant() {
        #expect(
            dialect.decode(.text(#"{"type":"transcript","role":"user","text":"Hello."}"#))
                == [.transcript(role: "user", text: "Hello.", isFinal: true)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"transcript","role":"assistant","text":"Hi, how can I help?"}"#))
                == [.transcript(role: "assistant", text: "Hi, how can I help?", isFinal: true)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"transcript","role":"agent","text":"Hi."}"#))
                == [.transcript(role: "assistant", text: "Hi.", isFinal: true)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"transcript","text":"who?"}"#))
                == [.transcript(role: "unknown", text: "who?", isFinal: true)]
        )
    }

    @Test func sessionClosedCarriesItsReason() {
        #expect(
            dialect.decode(.text(#"{"type":"session.closed","reason":"client_requested"}"#))
                == [.sessionEnded(reason: "client_requested")]
        )
        #expect(dialect.decode(.text(#"{"type":"session.closed","reason":"timeout"}"#)) == [.sessionEnded(reason: "timeout")])
        #expect(dialect.decode(.text(#"{"type":"session.closed"}"#)) == [.sessionEnded(reason: nil)])
    }

    @Test func errorsAreNotFatal() {
        #expect(
            dialect.decode(.text(#"{"type":"error","code":"invalid_event","message":"unknown event type"}"#))
                == [.error(code: "invalid_event", message: "unknown event type", fatal: false)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"error","code":"401","message":"unauthorized"}"#))
                == [.error(code: "401", message: "unauthorized", fatal: false)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"error","code":503,"message":"draining"}"#))
                == [.error(code: "503", message: "draining", fatal: false)]
        )
        #expect(dialect.decode(.text(#"{"type":"error"}"#)) == [.error(code: nil, message: "", fatal: false)])
    }

    @Test(arguments: [
        #"{"type":"session.created","session_id":"s","call_id":"c","sample_rate":24000,"channels":1}"#,
        #"{"type":"output_audio.delta","audio":"AAEC"}"#,
        #"{"type":"agent_stop_talking"}"#,
        #"{"type":"transcript","role":"user","text":"hi"}"#,
        #"{"type":"error","code":"no_session","message":"m"}"#,
    ])
    func jsonInBinaryFramesDecodesLikeText(text: String) {
        #expect(dialect.decode(.binary(Array(text.utf8))) == dialect.decode(.text(text)))
        #expect(!dialect.decode(.binary(Array(text.utf8))).isEmpty)
    }

    @Test func unknownTypesAreUnknown() {
        #expect(dialect.decode(.text(#"{"type":"usage","tokens":3}"#)) == [.unknown(type: "usage")])
        #expect(
            dialect.decode(.text(#"{"type":"input_audio_buffer.append","audio":"AAEC"}"#))
                == [.unknown(type: "input_audio_buffer.append")]
        )
    }

    @Test(arguments: [
        WireFrame.text("not json"), .text(""), .binary([0xFF, 0xFE, 0x00]), .text("[1,2]"), .text(#""text""#),
        .text(#"{"no":"type"}"#), .text(#"{"type":7}"#),
        .text(#"{"type":"output_audio.delta","audio":"@@not base64@@"}"#),
        .text(#"{"type":"output_audio.delta","audio":42}"#),
        .text(#"{"type":"transcript","role":"user"}"#),
        .text(#"{"type":"transcript.delta","role":"user","text":5}"#),
    ])
    func malformedFramesAreMalformed(frame: WireFrame) {
        #expect(Support.isSingleMalformed(dialect.decode(frame)))
    }

    @Test func codecDecodesThroughTheDialect() {
        var codec = dialect.makeCodec(parameters: [:])
        #expect(codec.receive(.text(#"{"type":"interruption"}"#)) == [.agentInterrupted])
        #expect(codec.receive(.text(#"{"type":"interruption"}"#)).replies.isEmpty)
    }
}
