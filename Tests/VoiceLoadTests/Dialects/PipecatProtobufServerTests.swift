import Testing
import WSCore

@testable import VoiceLoad

@Suite("Pipecat protobuf server dialect: the bot's side, as the simulator plays it")
struct PipecatProtobufServerTests {
    typealias Fixtures = PipecatProtobufFixtures

    @Test func dialectDefaults() throws {
        let dialect = PipecatProtobufServerDialect()
        #expect(dialect.id == "pipecat-protobuf" && dialect.sessionStart == .onOpen)
        #expect(dialect.inputFormat == .pcm16(16_000) && dialect.outputFormat == .pcm16(24_000))
        #expect(try DialectRegistry.server("pipecat-protobuf") is PipecatProtobufServerDialect)
    }

    @Test func decodesWhatAPipecatClientSends() throws {
        var codec = PipecatProtobufServerDialect().makeCodec(target: "/ws")
        #expect(try codec.receive(.binary(Fixtures.clientAudio16k)) == [.audio([0x01, 0x00])])
        #expect(try codec.receive(.binary(Fixtures.interruption)) == [.interrupt])
        #expect(try codec.receive(.binary(Fixtures.text)) == [.text("Sunny.")])
        #expect(try codec.receive(.binary(Fixtures.transcription)) == [])
        #expect(try codec.receive(.binary(Fixtures.userStartedSpeaking)) == [])
        #expect(throws: DialectDecodingError.unknownType("empty pipecat.Frame")) { try codec.receive(.binary([])) }
        for frame: WireFrame in [.text("{}"), .binary([0xFF, 0xFF])] {
            do {
                _ = try codec.receive(frame)
                Issue.record("\(frame): expected an error")
            } catch {
                guard case .malformed = error else {
                    Issue.record("\(frame): expected malformed, got \(error)")
                    continue
                }
            }
        }
    }

    @Test func speaksAsPipecatsSerializerDoes() {
        let dialect = PipecatProtobufServerDialect()
        var codec = dialect.makeCodec(target: "/ws")
        // What the serializer wrote for the same audio, without its frame id and name.
        let audio: [UInt8] = [0x12, 0x0C, 0x1A, 0x04, 0x01, 0x00, 0xFF, 0x7F, 0x20, 0xC0, 0xBB, 0x01, 0x28, 0x01]
        #expect(codec.frames(for: .audio([0x01, 0x00, 0xFF, 0x7F])) == [.binary(audio)])
        let shared = codec.audioFrame(dialect.prepareAudio([0x01, 0x00, 0xFF, 0x7F]))
        #expect(shared.payload.getBytes(at: 0, length: shared.payload.readableBytes) == audio)
        #expect(codec.frames(for: .interrupted) == [.binary([0x2A, 0x15, 0x12, 0x13] + Array("InterruptionFrame#0".utf8))])
        for output: AgentOutput in [
            .ready, .turnComplete(turnKey: "t1"), .agentTurnStarted(turnKey: "t1", latencyMs: 5), .error(code: nil, message: "x"),
        ] {
            #expect(codec.frames(for: output) == [], "\(output)")
        }
    }

    @Test func transcriptLinesRoundTripThroughTheClientCodec() {
        var server = PipecatProtobufServerDialect().makeCodec(target: "/ws")
        var client = PipecatProtobufClientDialect().makeCodec(parameters: [:])
        let frames =
            server.frames(for: .transcript(TranscriptLine(role: "user", text: "what's the weather")))
            + server.frames(for: .transcript(TranscriptLine(role: "agent", text: "Sunny.")))
            + server.frames(for: .interrupted) + server.frames(for: .audio([0, 0, 0, 0]))
        #expect(
            frames.flatMap { client.receive($0).events } == [
                .transcript(role: "user", text: "what's the weather", isFinal: true),
                .transcript(role: "agent", text: "Sunny.", isFinal: true),
                .agentInterrupted,
                .agentAudio(AgentAudioChunk(audio: [0, 0, 0, 0], format: .pcm16(24_000))),
            ]
        )
    }

    @Test func clientFramesRoundTripThroughTheServerCodec() throws {
        var client = PipecatProtobufClientDialect().makeCodec(parameters: [:])
        var server = PipecatProtobufServerDialect().makeCodec(target: "/ws")
        let audio = DialectTestSupport.bytes(count: 640, seed: 7)
        var intents: [ClientIntent] = []
        for frame in client.frames(for: .audio(audio)) + client.frames(for: .interrupt) + client.frames(for: .text("hi")) {
            intents += try server.receive(frame)
        }
        #expect(intents == [.audio(audio), .interrupt, .text("hi")])
    }
}
