import Foundation
import Testing
import WSClient

@testable import VoiceLoad

@Suite("OpenAI Realtime client dialect: configuration and encoding (docs/dialects.md)")
struct OpenAIRealtimeClientEncodingTests {
    typealias Support = DialectTestSupport
    let dialect = OpenAIRealtimeClientDialect()

    private func makeCodec(_ parameters: [String: JSONValue] = [:], dialect: OpenAIRealtimeClientDialect? = nil) -> any ClientCodec {
        (dialect ?? self.dialect).makeCodec(parameters: parameters)
    }

    @Test func defaultsMatchTheProtocol() {
        #expect(dialect.id == "openai-realtime")
        #expect(dialect.inputFormat == .pcm16(24_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.readySignal == .event)
        #expect(dialect.turnEndSignal == .event)
        #expect(dialect.authentication == .header(name: "Authorization", prefix: "Bearer "))
        #expect(dialect.defaultFrameMs == 40)
    }

    @Test func openingFrameIsAGASessionUpdateAt24kHz() {
        var codec = makeCodec()
        let frames = codec.framesOnOpen()
        #expect(frames.count == 1)
        #expect(Support.text(frames.first) != nil)
        #expect(
            Support.json(frames.first)
                == Support.json(
                    """
                    {"type":"session.update","session":{
                      "type":"realtime","output_modalities":["audio"],
                      "audio":{
                        "input":{"format":{"type":"audio/pcm","rate":24000},
                                 "transcription":{"model":"gpt-4o-mini-transcribe"},
                                 "turn_detection":{"type":"server_vad"}},
                        "output":{"format":{"type":"audio/pcm","rate":24000}}}}}
                    """
                )
        )
    }

    @Test func scenarioSessionIsMergedButTheAudioFormatsAreVloads() {
        let parameters: [String: JSONValue] = [
            "model": .string("gpt-realtime-mini"),
            "session": .object([
                "instructions": .string("Be brief."),
                "tools": .array([.object(["type": .string("function"), "name": .string("get_weather")])]),
                "audio": .object([
                    "input": .object([
                        "format": .object(["type": .string("audio/pcmu")]),
                        "turn_detection": .object(["type": .string("semantic_vad"), "eagerness": .string("high")]),
                    ]),
                    "output": .object(["voice": .string("marin"), "format": .string("pcm16")]),
                ]),
            ]),
        ]
        var codec = makeCodec(parameters)
        #expect(
            Support.json(codec.framesOnOpen().first)
                == Support.json(
                    """
                    {"type":"session.update","session":{
                      "type":"realtime","model":"gpt-realtime-mini","output_modalities":["audio"],"instructions":"Be brief.",
                      "tools":[{"type":"function","name":"get_weather"}],
                      "audio":{
                        "input":{"format":{"type":"audio/pcm","rate":24000},
                                 "transcription":{"model":"gpt-4o-mini-transcribe"},
                                 "turn_detection":{"type":"semantic_vad","eagerness":"high"}},
                        "output":{"format":{"type":"audio/pcm","rate":24000},"voice":"marin"}}}}
                    """
                )
        )
    }

    @Test func scenarioNullSelectsManualTurnsAndOtherParametersStayOut() {
        let parameters: [String: JSONValue] = [
            "agent_id": .string("ignored"),
            "session": .object([
                "audio": .object(["input": .object(["turn_detection": .null, "transcription": .null])]),
                "output_modalities": .array([.string("audio"), .string("text")]),
                "temperature": .number(Double.nan),
            ]),
        ]
        var codec = makeCodec(parameters)
        #expect(
            Support.json(codec.framesOnOpen().first)
                == Support.json(
                    """
                    {"type":"session.update","session":{
                      "type":"realtime","output_modalities":["audio","text"],"temperature":null,
                      "audio":{
                        "input":{"format":{"type":"audio/pcm","rate":24000},"transcription":null,"turn_detection":null},
                        "output":{"format":{"type":"audio/pcm","rate":24000}}}}}
                    """
                )
        )
    }

    @Test func sampleRateIsConfigurable() {
        var codec = makeCodec(dialect: OpenAIRealtimeClientDialect(sampleRateHz: 16_000))
        guard case .object(let root)? = Support.json(codec.framesOnOpen().first),
            case .object(let session)? = root["session"], case .object(let audio)? = session["audio"],
            case .object(let input)? = audio["input"], case .object(let output)? = audio["output"]
        else {
            Issue.record("no session.audio")
            return
        }
        #expect(input["format"] == Support.json(#"{"type":"audio/pcm","rate":16000}"#))
        #expect(output["format"] == Support.json(#"{"type":"audio/pcm","rate":16000}"#))
        let mulaw = OpenAIRealtimeClientDialect(inputFormat: .mulaw8k, outputFormat: .mulaw8k)
        var mulawCodec = makeCodec(dialect: mulaw)
        #expect(Support.text(mulawCodec.framesOnOpen().first)?.contains(#""format":{"type":"audio\/pcmu"}"#) == false)
        #expect(Support.text(mulawCodec.framesOnOpen().first)?.contains(#""format":{"type":"audio/pcmu"}"#) == true)
    }

    @Test func startIntentIsTheSameSessionUpdate() {
        let parameters: [String: JSONValue] = ["session": .object(["instructions": .string("Hi")])]
        var codec = makeCodec(parameters)
        #expect(codec.frames(for: .start(parameters: parameters)) == codec.framesOnOpen())
    }

    @Test func audioIsASharedAppendEvent() throws {
        let bytes = Support.bytes(count: 1_920, seed: 5)
        let prepared = dialect.prepareAudio(bytes)
        #expect(prepared.byteCount == 1_920)
        let shared = try #require(prepared.sharedFrame)
        let expected = #"{"type":"input_audio_buffer.append","audio":"\#(Support.base64(bytes))"}"#
        #expect(Support.wireFrame(of: shared) == .text(expected))
        var codec = makeCodec()
        #expect(Support.wireFrame(of: codec.audioFrame(prepared)) == .text(expected))
        #expect(Support.wireFrame(of: codec.audioFrame(PreparedAudio(base64: Support.base64(bytes), byteCount: 1_920))) == .text(expected))
        #expect(codec.frames(for: .audio(bytes)) == [.text(expected)])
    }

    @Test func intentsBecomeClientEvents() {
        var codec = makeCodec()
        #expect(codec.frames(for: .interrupt).map { Support.json($0) } == [Support.json(#"{"type":"response.cancel"}"#)])
        #expect(codec.frames(for: .commit).map { Support.json($0) } == [Support.json(#"{"type":"input_audio_buffer.commit"}"#)])
        #expect(
            codec.frames(for: .toolResult(callID: "call_1", name: "get_weather", output: #"{"temp":21}"#)).map { Support.json($0) } == [
                Support.json(
                    #"{"type":"conversation.item.create","item":{"type":"function_call_output","call_id":"call_1","output":"{\"temp\":21}"}}"#
                ),
                Support.json(#"{"type":"response.create"}"#),
            ]
        )
        #expect(
            codec.frames(for: .text("Hello \"there\"")).map { Support.json($0) } == [
                Support.json(
                    #"{"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"Hello \"there\""}]}}"#
                ),
                Support.json(#"{"type":"response.create"}"#),
            ]
        )
        for intent in [ClientIntent.stop, .keepAlive, .markPlayed(name: "m")] {
            #expect(codec.frames(for: intent).isEmpty)
        }
    }

    @Test func endpointGetsTheModelWhenMissing() throws {
        let base = try WebSocketEndpoint(parsing: "wss://api.openai.com/v1/realtime")
        #expect(dialect.endpoint(for: base, parameters: [:]).urlString == "wss://api.openai.com/v1/realtime?model=gpt-realtime")
        #expect(
            dialect.endpoint(for: base, parameters: ["model": .string("gpt-4o-realtime-preview")]).urlString
                == "wss://api.openai.com/v1/realtime?model=gpt-4o-realtime-preview"
        )
        let withModel = try WebSocketEndpoint(parsing: "wss://proxy.example/v1/realtime?model=mine&x=1")
        #expect(dialect.endpoint(for: withModel, parameters: ["model": .string("other")]) == withModel)
        let withQuery = try WebSocketEndpoint(parsing: "ws://127.0.0.1:8080/rt?trace=1")
        #expect(
            dialect.endpoint(for: withQuery, parameters: ["model": .number(3)]).urlString
                == "ws://127.0.0.1:8080/rt?trace=1&model=gpt-realtime"
        )
    }
}
