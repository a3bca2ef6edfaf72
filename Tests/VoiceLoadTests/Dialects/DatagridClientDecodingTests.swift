import Testing

@testable import VoiceLoad

@Suite("Datagrid client dialect: decoding server messages (docs/dialects.md)")
struct DatagridClientDecodingTests {
    typealias Support = DialectTestSupport
    let dialect = DatagridClientDialect()

    @Test func started() {
        let events = dialect.decode(.text(#"{"type":"started","payload":{"session_id":"sess_123","conversation_id":"conv_456"}}"#))
        #expect(events == [.sessionStarted(ids: ["session_id": "sess_123", "conversation_id": "conv_456"])])
    }

    @Test func startedWithoutPayloadHasNoIDs() {
        #expect(dialect.decode(.text(#"{"type":"started"}"#)) == [.sessionStarted(ids: [:])])
    }

    @Test func ready() {
        #expect(dialect.decode(.text(#"{"type":"ready"}"#)) == [.sessionReady])
    }

    @Test func audioIsDecodedIntoAChunkOfTheOutputFormat() {
        let silence = [UInt8](repeating: 0, count: 960)
        let events = dialect.decode(.text(#"{"type":"audio","payload":{"data":"\#(Support.base64(silence))"}}"#))
        #expect(events == [.agentAudio(AgentAudioChunk(byteCount: 960, durationUs: 20_000, rmsLevel: 0))])
    }

    @Test func audioChunkMeasuresLoudness() {
        // Full-scale square wave: samples alternate +32767 / -32768.
        let high: [UInt8] = [0xFF, 0x7F]
        let low: [UInt8] = [0x00, 0x80]
        let square: [UInt8] = (0..<480).flatMap { (index: Int) -> [UInt8] in index % 2 == 0 ? high : low }
        let events = dialect.decode(.text(#"{"type":"audio","payload":{"data":"\#(Support.base64(square))"}}"#))
        guard case .agentAudio(let chunk)? = events.first, events.count == 1 else {
            Issue.record("expected one audio event, got \(events)")
            return
        }
        #expect(chunk.byteCount == 960)
        #expect(chunk.durationUs == 20_000)
        #expect(chunk.rmsLevel > 0.99)
    }

    @Test func audioDurationFollowsAConfiguredOutputFormat() {
        let dialect16k = DatagridClientDialect(outputFormat: .pcm16(16_000))
        let events = dialect16k.decode(.text(#"{"type":"audio","payload":{"data":"\#(Support.base64(Array(repeating: 0, count: 960)))"}}"#))
        #expect(events == [.agentAudio(AgentAudioChunk(byteCount: 960, durationUs: 30_000, rmsLevel: 0))])
    }

    @Test(arguments: [
        #"{"type":"audio","payload":{"data":""}}"#,
        #"{"type":"audio","payload":{}}"#,
        #"{"type":"audio","payload":{"data":null}}"#,
        #"{"type":"audio"}"#,
        #"{"type":"audio","payload":null}"#,
    ])
    func audioWithoutDataYieldsNoEvent(frame: String) {
        #expect(dialect.decode(.text(frame)) == [])
    }

    @Test func toolCall() {
        let events = dialect.decode(.text(#"{"type":"tool_call","payload":{"tool_name":"search_docs","status":"started"}}"#))
        #expect(events == [.toolCall(name: "search_docs", status: "started")])
    }

    @Test func interrupted() {
        #expect(dialect.decode(.text(#"{"type":"interrupted"}"#)) == [.agentInterrupted])
    }

    @Test func errorIsFatal() {
        let events = dialect.decode(.text(#"{"type":"error","payload":{"message":"Agent not found"}}"#))
        #expect(events == [.error(code: nil, message: "Agent not found", fatal: true)])
    }

    @Test func transcriptWithFinality() {
        #expect(
            dialect.decode(.text(#"{"type":"transcript","payload":{"role":"user","text":"Hello there","is_final":false}}"#))
                == [.transcript(role: "user", text: "Hello there", isFinal: false)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"transcript","payload":{"role":"agent","text":"Hi!","final":false}}"#))
                == [.transcript(role: "agent", text: "Hi!", isFinal: false)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"transcript","payload":{"role":"agent","text":"Hi!","isFinal":true}}"#))
                == [.transcript(role: "agent", text: "Hi!", isFinal: true)]
        )
    }

    @Test func transcriptWithoutFinalityIsFinal() {
        #expect(
            dialect.decode(.text(#"{"type":"transcript","payload":{"role":"assistant","text":"Sure."}}"#))
                == [.transcript(role: "assistant", text: "Sure.", isFinal: true)]
        )
    }

    @Test func transcriptIsParsedDefensively() {
        #expect(
            dialect.decode(.text(#"{"type":"transcript","payload":{"text":"no role"}}"#))
                == [.transcript(role: "unknown", text: "no role", isFinal: true)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"transcript","payload":{"speaker":"user","transcript":"alt keys"}}"#))
                == [.transcript(role: "user", text: "alt keys", isFinal: true)]
        )
        #expect(
            dialect.decode(.text(#"{"type":"transcript","payload":{"role":"user"}}"#))
                == [.unknown(type: "transcript")]
        )
        #expect(dialect.decode(.text(#"{"type":"transcript"}"#)) == [.unknown(type: "transcript")])
    }

    @Test func citationIsLogOnly() {
        #expect(dialect.decode(.text(#"{"type":"citation","payload":{"source":"doc.pdf","page":3}}"#)) == [])
    }

    @Test func ended() {
        let frame = #"{"type":"ended","payload":{"transcript":[{"role":"user","text":"Hi"},{"role":"agent","text":"Hello!"}]}}"#
        #expect(dialect.decode(.text(frame)) == [.sessionEnded(reason: nil)])
    }

    @Test func unknownTypeIsCountedNotFatal() {
        #expect(dialect.decode(.text(#"{"type":"pong","payload":{"t":1}}"#)) == [.unknown(type: "pong")])
        #expect(dialect.decode(.text(#"{"type":""}"#)) == [.unknown(type: "")])
    }

    @Test(arguments: [
        #"{"type":"started","payload":{"session_id":"s","conversation_id":"c"}}"#,
        #"{"type":"ready"}"#,
        #"{"type":"audio","payload":{"data":"AAAAAA=="}}"#,
        #"{"type":"tool_call","payload":{"tool_name":"t","status":"completed"}}"#,
        #"{"type":"interrupted"}"#,
        #"{"type":"error","payload":{"message":"boom"}}"#,
        #"{"type":"transcript","payload":{"role":"user","text":"x"}}"#,
        #"{"type":"citation","payload":{}}"#,
        #"{"type":"ended","payload":{"transcript":[]}}"#,
        #"{"type":"mystery"}"#,
        "not json",
    ])
    func jsonInBinaryFramesDecodesLikeText(frame: String) {
        #expect(dialect.decode(.binary(Array(frame.utf8))) == dialect.decode(.text(frame)))
    }

    @Test func binaryAudioFrameIsDecoded() {
        let frame = #"{"type":"audio","payload":{"data":"AAAAAA=="}}"#
        #expect(
            dialect.decode(.binary(Array(frame.utf8)))
                == [.agentAudio(AgentAudioChunk(byteCount: 4, durationUs: 83, rmsLevel: 0))]
        )
    }

    @Test(arguments: [
        "",  // empty frame
        "not json",  // not JSON
        "[1,2,3]",  // JSON array
        #""ready""#,  // JSON string
        "42",  // JSON number
        "null",  // JSON null
        #"{"payload":{"data":"AAAA"}}"#,  // missing type
        #"{"type":7}"#,  // type not a string
        #"{"type":null}"#,  // type null
        #"{"type":["audio"]}"#,  // type an array
        #"{"type":"audio","payload":{"data":"!!!not base64"}}"#,  // bad base64
        #"{"type":"audio","payload":{"data":"AAA"}}"#,  // bad base64 length
        #"{"type":"audio","payload":{"data":12}}"#,  // data not a string
        #"{"type":"audio","payload":{"data":"AAAA"}"#,  // truncated
        #"{"type":"audio","payload":{"da"#,  // truncated mid-key
        #"{"type":"ready""#,  // truncated after type
        #"{"type":"ready","payload":"x"}"#,  // payload not an object
        #"{"type":"started","payload":[1]}"#,  // payload an array
    ])
    func malformedFrames(frame: String) {
        #expect(Support.isSingleMalformed(dialect.decode(.text(frame))), "text: \(frame)")
        #expect(Support.isSingleMalformed(dialect.decode(.binary(Array(frame.utf8)))), "binary: \(frame)")
    }

    @Test func invalidUTF8InABinaryFrameIsMalformed() {
        #expect(Support.isSingleMalformed(dialect.decode(.binary([0x7B, 0xFF, 0xFE, 0x7D]))))
        #expect(Support.isSingleMalformed(dialect.decode(.binary([0x00]))))
    }

    @Test func deeplyNestedGarbageDoesNotCrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(Support.isSingleMalformed(dialect.decode(.text(deep))))
    }
}
