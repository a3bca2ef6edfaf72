import Foundation
import Testing
import WSCore

@testable import VoiceLoad

/// The shipped `dialects/elevenlabs-agents.yaml` and `dialects/gemini-live.yaml`: they load
/// without any environment, and frames shaped as the official SDKs shape them decode to the
/// events vload measures from (Tests/Conformance checks them against the SDKs themselves).
@Suite("Shipped dialect files: ElevenLabs Agents, Gemini Live")
struct ShippedDialectFileTests {
    typealias Support = CustomDialectTestSupport

    static func load(_ name: String) throws -> CustomDialect {
        let path = try #require(DialectSearchPath.standard(environment: [:], executablePath: nil).locate(name))
        return try CustomDialect.load(path: path, environment: [:])
    }

    static let pcm: [UInt8] = (0..<640).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    static var pcmBase64: String { Data(pcm).base64EncodedString() }

    static func audioBytes(_ events: [NormalizedEvent]) -> [Int] {
        events.compactMap { if case .agentAudio(let chunk) = $0 { chunk.byteCount } else { nil } }
    }

    @Test func elevenLabsFormatsAndSignals() throws {
        let dialect = try Self.load("elevenlabs-agents")
        #expect(dialect.id == "elevenlabs-agents")
        #expect(dialect.inputFormat == AudioFormat(encoding: .pcm16, sampleRateHz: 16_000))
        #expect(dialect.outputFormat == AudioFormat(encoding: .pcm16, sampleRateHz: 16_000))
        #expect(dialect.readySignal == .event)
        #expect(dialect.turnEndSignal == .eventOrAudioGap)
    }

    @Test func elevenLabsFrames() throws {
        let dialect = try Self.load("elevenlabs-agents")
        var codec = dialect.makeCodec(parameters: [:])
        let open = codec.framesOnOpen()
        #expect(
            DialectTestSupport.json(open.first)
                == .object([
                    "type": .string("conversation_initiation_client_data"), "conversation_config_override": .null,
                    "custom_llm_extra_body": .null, "dynamic_variables": .null,
                ])
        )
        let audio = codec.frames(for: .audio([1, 2, 3, 4]))
        #expect(DialectTestSupport.json(audio.first) == .object(["user_audio_chunk": .string("AQIDBA==")]))

        let metadata = codec.receive(
            .text(
                #"{"type":"conversation_initiation_metadata","conversation_initiation_metadata_event":{"conversation_id":"c1","agent_output_audio_format":"pcm_16000"}}"#
            )
        )
        #expect(metadata.events == [.sessionStarted(ids: ["conversation_id": "c1"]), .sessionReady])
        let chunk = codec.receive(.text(#"{"type":"audio","audio_event":{"audio_base_64":"\#(Self.pcmBase64)","event_id":1}}"#))
        #expect(Self.audioBytes(chunk.events) == [640])
        #expect(codec.receive(.text(#"{"type":"interruption","interruption_event":{"event_id":1}}"#)).events == [.agentInterrupted])

        let ping = codec.receive(.text(#"{"type":"ping","ping_event":{"event_id":12,"ping_ms":30}}"#))
        #expect(ping.events == [])
        #expect(ping.replies.first?.timing == .immediately)
        #expect(DialectTestSupport.json(ping.replies.first?.frame) == .object(["type": .string("pong"), "event_id": .number(12)]))
        #expect(codec.receive(.text(#"{"type":"vad_score","vad_score_event":{"vad_score":0.9}}"#)).events == [])
        #expect(codec.receive(.text(#"{"type":"brand_new"}"#)).events == [.unknown(type: "brand_new")])
    }

    @Test func geminiFormatsAndSignals() throws {
        let dialect = try Self.load("gemini-live")
        #expect(dialect.id == "gemini-live")
        #expect(dialect.inputFormat == AudioFormat(encoding: .pcm16, sampleRateHz: 16_000))
        #expect(dialect.outputFormat == AudioFormat(encoding: .pcm16, sampleRateHz: 24_000))
        #expect(dialect.readySignal == .event)
        #expect(dialect.turnEndSignal == .event)
    }

    @Test func geminiFrames() throws {
        let dialect = try Self.load("gemini-live")
        var codec = dialect.makeCodec(parameters: ["model": .string("models/m")])
        #expect(
            DialectTestSupport.json(codec.framesOnOpen().first)
                == .object([
                    "setup": .object([
                        "model": .string("models/m"),
                        "generationConfig": .object(["responseModalities": .array([.string("AUDIO")])]),
                    ])
                ])
        )
        #expect(
            DialectTestSupport.json(codec.frames(for: .audio([1, 2, 3, 4])).first)
                == .object([
                    "realtimeInput": .object([
                        "audio": .object(["data": .string("AQIDBA=="), "mimeType": .string("audio/pcm;rate=16000")])
                    ])
                ])
        )

        // The server's JSON comes in binary frames.
        func binary(_ text: String) -> WireFrame { .binary(Array(text.utf8)) }
        #expect(codec.receive(binary(#"{"setupComplete":{}}"#)).events == [.sessionReady])
        let part = #"{"inlineData":{"mimeType":"audio/pcm;rate=24000","data":"\#(Self.pcmBase64)"}}"#
        let turn = codec.receive(binary(#"{"serverContent":{"modelTurn":{"role":"model","parts":[\#(part),{"text":"hi"},\#(part)]}}}"#))
        #expect(Self.audioBytes(turn.events) == [1_280])
        #expect(codec.receive(binary(#"{"serverContent":{"interrupted":true}}"#)).events == [.agentInterrupted])
        #expect(codec.receive(binary(#"{"serverContent":{"turnComplete":true}}"#)).events == [.turnComplete(turnKey: nil)])
        // Several model turns in one answer: only the one that leaves the interaction idle ends it.
        let inProgress = #"{"serverContent":{"turnComplete":true,"interactionStatus":"IN_PROGRESS","turnCompleteReason":"NEED_MORE_INPUT"}}"#
        #expect(codec.receive(binary(inProgress)).events.isEmpty)
        let idle = #"{"serverContent":{"turnComplete":true,"interactionStatus":"IDLE"}}"#
        #expect(codec.receive(binary(idle)).events == [.turnComplete(turnKey: nil)])
        #expect(codec.receive(binary(#"{"serverContent":{"generationComplete":true}}"#)).events == [])
        #expect(codec.receive(binary(#"{"goAway":{"timeLeft":"5s"}}"#)).events == [.unknown(type: "{goAway}")])
    }
}
