import Testing
import WSCore

@testable import VoiceLoad

@Suite("ADK events client dialect: decoding raw ADK Event JSON")
struct ADKEventDecodingTests {
    typealias Support = DialectTestSupport
    let dialect = ADKClientDialect(variant: .events)

    private func decode(_ text: String) -> [NormalizedEvent] {
        dialect.decode(.text(text))
    }

    private static func audio(_ bytes: [UInt8]) -> NormalizedEvent {
        .agentAudio(AgentAudioChunk(audio: bytes, format: .pcm16(24_000)))
    }

    private static func audioEvent(data: String, extra: String = "") -> String {
        #"{"author":"voice_agent","content":{"parts":[{"inlineData":{"mimeType":"audio/pcm;rate=24000","data":"\#(data)"}}],"role":"model"},"partial":true\#(extra)}"#
    }

    @Test func inlineDataAudio() {
        let bytes = Support.bytes(count: 4_800, seed: 12)
        #expect(decode(Self.audioEvent(data: Support.base64(bytes))) == [Self.audio(bytes)])
    }

    @Test func base64urlWithAndWithoutPadding() {
        #expect(decode(Self.audioEvent(data: "-_-_ABA")) == [Self.audio([0xFB, 0xFF, 0xBF, 0x00, 0x10])])
        #expect(decode(Self.audioEvent(data: "-_-_ABA=")) == [Self.audio([0xFB, 0xFF, 0xBF, 0x00, 0x10])])
        #expect(decode(Self.audioEvent(data: "--_-AQ")) == [Self.audio([0xFB, 0xEF, 0xFE, 0x01])])
        #expect(decode(Self.audioEvent(data: "++/+AQ==")) == [Self.audio([0xFB, 0xEF, 0xFE, 0x01])])
    }

    @Test func oneEventCarryingAudioInterruptedAndTurnCompleteGivesAllThreeInOrder() {
        let frame = Self.audioEvent(data: "AAEC", extra: #","interrupted":true,"turnComplete":true"#)
        #expect(decode(frame) == [Self.audio([0, 1, 2]), .agentInterrupted, .turnComplete(turnKey: nil)])
    }

    @Test func everyPartCounts() {
        let frame = #"""
            {"author":"a","content":{"role":"model","parts":[
              {"inlineData":{"mimeType":"audio/pcm;rate=24000","data":"AAEC"}},
              {"text":"Hello","partial":true},
              {"functionCall":{"name":"get_weather","args":{"city":"Berlin"}}},
              {"functionResponse":{"name":"get_weather","response":{"temp":21}}},
              {"inlineData":{"mimeType":"audio/pcm","data":"AwQ"}}]}}
            """#
        #expect(
            decode(frame) == [
                Self.audio([0, 1, 2]), .toolCall(name: "get_weather", status: "called", arguments: #"{"city":"Berlin"}"#),
                Self.audio([3, 4]),
            ]
        )
    }

    @Test func turnFlags() {
        #expect(decode(#"{"author":"voice_agent","turnComplete":true}"#) == [.turnComplete(turnKey: nil)])
        #expect(decode(#"{"interrupted":true}"#) == [.agentInterrupted])
        #expect(decode(#"{"author":"voice_agent","turnComplete":false,"interrupted":false}"#) == [])
    }

    @Test func transcriptions() {
        #expect(
            decode(#"{"author":"user","inputTranscription":{"text":"What's the","finished":false},"partial":true}"#)
                == [.transcript(role: "user", text: "What's the", isFinal: false)]
        )
        #expect(
            decode(#"{"author":"user","inputTranscription":{"text":"What's the weather?","finished":true}}"#)
                == [.transcript(role: "user", text: "What's the weather?", isFinal: true)]
        )
        #expect(
            decode(#"{"author":"user","inputTranscription":{"finished":true}}"#)
                == [.transcript(role: "user", text: "", isFinal: true)]
        )
        #expect(
            decode(#"{"author":"voice_agent","outputTranscription":{"text":"Sunny."}}"#)
                == [.transcript(role: "assistant", text: "Sunny.", isFinal: false)]
        )
        #expect(decode(#"{"author":"user","inputTranscription":{}}"#) == [])
    }

    @Test func errors() {
        #expect(
            decode(#"{"author":"voice_agent","errorCode":"SAFETY","errorMessage":"Response blocked"}"#)
                == [.error(code: "SAFETY", message: "Response blocked", fatal: false)]
        )
        #expect(
            decode(#"{"errorCode":"RESOURCE_EXHAUSTED"}"#)
                == [.error(code: "RESOURCE_EXHAUSTED", message: "RESOURCE_EXHAUSTED", fatal: false)]
        )
        #expect(decode(#"{"errorMessage":"unavailable"}"#) == [.error(code: nil, message: "unavailable", fatal: false)])
    }

    @Test func snakeCaseEventsAreAcceptedToo() {
        let frame =
            #"{"content":{"parts":[{"inline_data":{"mime_type":"audio/pcm","data":"AAEC"}}]},"turn_complete":true,"error_code":"MAX_TOKENS"}"#
        #expect(
            decode(frame) == [
                Self.audio([0, 1, 2]), .error(code: "MAX_TOKENS", message: "MAX_TOKENS", fatal: false),
                .turnComplete(turnKey: nil),
            ]
        )
        #expect(decode(#"{"input_transcription":{"text":"hi","finished":true}}"#) == [.transcript(role: "user", text: "hi", isFinal: true)])
    }

    @Test func eventsVloadDoesNotMeasureCarryNothing() {
        #expect(decode(#"{"author":"voice_agent","usageMetadata":{"promptTokenCount":10}}"#) == [])
        #expect(decode(#"{"author":"voice_agent","content":{"parts":[{"text":"Hi"}],"role":"model"},"partial":true}"#) == [])
        #expect(decode(#"{"author":"voice_agent","content":{"role":"model"}}"#) == [])
        #expect(decode(#"{"id":"e1","invocationId":"i1","author":"voice_agent","actions":{}}"#) == [])
    }

    @Test func jsonInBinaryFramesDecodesLikeText() {
        for text in [Self.audioEvent(data: "AAEC"), #"{"turnComplete":true}"#, #"{"interrupted":true}"#] {
            #expect(dialect.decode(.binary(Array(text.utf8))) == decode(text))
        }
    }

    @Test func unknownShapesAreUnknown() {
        #expect(decode(#"{"type":"ping"}"#) == [.unknown(type: "ping")])
        #expect(decode(#"{"foo":1}"#) == [.unknown(type: "{foo}")])
        #expect(
            decode(#"{"content":{"parts":[{"inlineData":{"mimeType":"image/jpeg","data":"AAEC"}}]}}"#)
                == [.unknown(type: "image/jpeg")]
        )
    }

    @Test func malformedFramesAreMalformed() {
        let frames: [WireFrame] = [
            .text("{"), .text(""), .binary([0x00, 0x01, 0x02]), .text(#""event""#),
            .text(#"{"content":"hi"}"#), .text(#"{"content":{"parts":{}}}"#), .text(#"{"content":{"parts":[3]}}"#),
            .text(Self.audioEvent(data: "AAECA")), .text(Self.audioEvent(data: "AA EC")),
            .text(#"{"content":{"parts":[{"inlineData":{"mimeType":"audio/pcm","data":1}}]}}"#),
            .text(#"{"content":{"parts":[{"inlineData":"AAEC"}]}}"#),
            .text(#"{"inputTranscription":"hi"}"#),
        ]
        for frame in frames {
            #expect(Support.isSingleMalformed(dialect.decode(frame)), "\(frame)")
        }
    }

    @Test func base64DecodingRules() {
        #expect(ADKBase64.decode("AAEC") == [0, 1, 2])
        #expect(ADKBase64.decode("AAE") == [0, 1])
        #expect(ADKBase64.decode("AA") == [0])
        #expect(ADKBase64.decode("") == [])
        #expect(ADKBase64.decode("A") == nil)
        #expect(ADKBase64.decode("AA*C") == nil)
        #expect(ADKBase64.urlSafeEncoded([0xFB, 0xFF, 0xBF, 0x00, 0x10]) == "-_-_ABA=")
        #expect(ADKBase64.urlSafeEncoded([0, 1, 2]) == "AAEC")
    }
}
