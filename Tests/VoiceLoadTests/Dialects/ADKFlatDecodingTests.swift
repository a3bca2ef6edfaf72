import Testing
import WSCore

@testable import VoiceLoad

@Suite("ADK seed and legacy client dialects: decoding server frames")
struct ADKFlatDecodingTests {
    typealias Support = DialectTestSupport
    static let variants: [ADKVariant] = [.seed, .legacy]

    private func decode(_ text: String, _ variant: ADKVariant) -> [NormalizedEvent] {
        ADKClientDialect(variant: variant).decode(.text(text))
    }

    private static func audio(_ bytes: [UInt8]) -> NormalizedEvent {
        .agentAudio(AgentAudioChunk(audio: bytes, format: .pcm16(24_000)))
    }

    @Test(arguments: variants)
    func agentAudioAt24kHz(variant: ADKVariant) {
        let bytes = Support.bytes(count: 2_400, seed: 11)
        #expect(decode(#"{"mime_type":"audio/pcm","data":"\#(Support.base64(bytes))"}"#, variant) == [Self.audio(bytes)])
        #expect(decode(#"{"mime_type":"audio/pcm;rate=24000","data":"AAEC"}"#, variant) == [Self.audio([0, 1, 2])])
        #expect(decode(#"{"mime_type":"audio/pcm","data":""}"#, variant) == [])
    }

    @Test(arguments: variants)
    func base64urlWithoutPaddingIsAccepted(variant: ADKVariant) {
        #expect(decode(#"{"mime_type":"audio/pcm","data":"-_-_ABA"}"#, variant) == [Self.audio([0xFB, 0xFF, 0xBF, 0x00, 0x10])])
    }

    @Test(arguments: variants)
    func turnFlags(variant: ADKVariant) {
        #expect(decode(#"{"turn_complete": true}"#, variant) == [.turnComplete(turnKey: nil)])
        #expect(decode(#"{"turn_complete": true, "interrupted": false}"#, variant) == [.turnComplete(turnKey: nil)])
        #expect(decode(#"{"turn_complete": false, "interrupted": true}"#, variant) == [.agentInterrupted])
        #expect(decode(#"{"interrupted": true}"#, variant) == [.agentInterrupted])
        #expect(decode(#"{"turn_complete": false, "interrupted": false}"#, variant) == [])
        #expect(decode(#"{"turnComplete": true}"#, variant) == [.turnComplete(turnKey: nil)])
    }

    @Test(arguments: variants)
    func oneFrameCarryingAudioInterruptedAndTurnCompleteGivesAllThree(variant: ADKVariant) {
        let frame = #"{"mime_type":"audio/pcm","data":"AAEC","interrupted":true,"turn_complete":true}"#
        #expect(decode(frame, variant) == [Self.audio([0, 1, 2]), .agentInterrupted, .turnComplete(turnKey: nil)])
    }

    @Test(arguments: variants)
    func transcriptionsFromSection6_1(variant: ADKVariant) {
        #expect(
            decode(#"{"type":"input_transcription","finished":true,"data":"What's the weather?"}"#, variant)
                == [.transcript(role: "user", text: "What's the weather?", isFinal: true)]
        )
        #expect(
            decode(#"{"type":"output_transcription","finished":true,"data":"It's sunny."}"#, variant)
                == [.transcript(role: "assistant", text: "It's sunny.", isFinal: true)]
        )
        #expect(
            decode(#"{"type":"input_transcription","finished":false,"data":"What's"}"#, variant)
                == [.transcript(role: "user", text: "What's", isFinal: false)]
        )
        #expect(
            decode(#"{"type":"output_transcription","data":"It's"}"#, variant)
                == [.transcript(role: "assistant", text: "It's", isFinal: false)]
        )
        #expect(decode(#"{"type":"input_transcription","finished":false,"data":""}"#, variant) == [])
    }

    @Test(arguments: variants)
    func toolUseWasAlreadyRunByTheServer(variant: ADKVariant) {
        #expect(
            decode(#"{"type":"tool_use","tool_name":"get_weather","tool_args":{"city":"Berlin"}}"#, variant)
                == [.toolCall(name: "get_weather", status: "completed", arguments: #"{"city":"Berlin"}"#)]
        )
    }

    @Test(arguments: variants)
    func agentTextCarriesNoEvent(variant: ADKVariant) {
        #expect(decode(#"{"mime_type":"text/plain","data":"Hello there"}"#, variant) == [])
    }

    @Test(arguments: variants)
    func jsonInBinaryFramesDecodesLikeText(variant: ADKVariant) {
        let dialect = ADKClientDialect(variant: variant)
        for text in [#"{"mime_type":"audio/pcm","data":"AAEC"}"#, #"{"turn_complete":true}"#, #"{"interrupted":true}"#] {
            #expect(dialect.decode(.binary(Array(text.utf8))) == dialect.decode(.text(text)))
        }
    }

    @Test(arguments: variants)
    func unknownTypesAndShapesAreUnknown(variant: ADKVariant) {
        #expect(decode(#"{"type":"status","status":"connected"}"#, variant) == [.unknown(type: "status")])
        #expect(decode(#"{"mime_type":"image/jpeg","data":"AAEC"}"#, variant) == [.unknown(type: "image/jpeg")])
        #expect(decode(#"{"hello":1,"a":null}"#, variant) == [.unknown(type: "{a,hello}")])
        #expect(decode(#"{}"#, variant) == [.unknown(type: "{}")])
    }

    @Test(arguments: variants)
    func malformedFramesAreMalformed(variant: ADKVariant) {
        let dialect = ADKClientDialect(variant: variant)
        let frames: [WireFrame] = [
            .text("not json"), .text(""), .binary([0x00, 0x80, 0x81]), .text("[1]"),
            .text(#"{"mime_type":"audio/pcm","data":"@@@"}"#), .text(#"{"mime_type":"audio/pcm","data":"AAECA"}"#),
            .text(#"{"mime_type":"audio/pcm","data":7}"#), .text(#"{"mime_type":3,"data":"AAEC"}"#), .text(#"{"type":[]}"#),
        ]
        for frame in frames {
            #expect(Support.isSingleMalformed(dialect.decode(frame)), "\(frame)")
        }
    }

    @Test(arguments: variants)
    func aBadPartDoesNotHideTheTurnFlags(variant: ADKVariant) {
        let events = decode(#"{"mime_type":"audio/pcm","data":"@@@","turn_complete":true}"#, variant)
        #expect(events.count == 2)
        #expect(Support.isSingleMalformed(Array(events.prefix(1))))
        #expect(events.last == .turnComplete(turnKey: nil))
    }
}
