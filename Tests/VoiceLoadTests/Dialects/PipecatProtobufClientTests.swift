import Testing
import WSCore

@testable import VoiceLoad

@Suite("Pipecat protobuf client dialect: vload as a Pipecat client")
struct PipecatProtobufClientTests {
    typealias Fixtures = PipecatProtobufFixtures

    @Test func dialectDefaults() throws {
        let dialect = PipecatProtobufClientDialect()
        #expect(dialect.id == "pipecat-protobuf")
        #expect(dialect.inputFormat == .pcm16(16_000) && dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.readySignal == .onOpen && dialect.turnEndSignal == .audioGap)
        #expect(dialect.authentication == .none && !dialect.awaitsSessionEndOnHangUp)
        #expect(try DialectRegistry.client("pipecat-protobuf") is PipecatProtobufClientDialect)
    }

    @Test func audioGoesOutAsTheBytesAPipecatClientSends() {
        let dialect = PipecatProtobufClientDialect()
        let prepared = dialect.prepareAudio([0x01, 0x00])
        #expect(prepared.byteCount == 2)
        var codec = dialect.makeCodec(parameters: [:])
        let frame = codec.audioFrame(prepared)
        #expect(frame.kind == .binary)
        #expect(frame.payload.getBytes(at: 0, length: frame.payload.readableBytes) == Fixtures.clientAudio16k)
        #expect(codec.frames(for: .audio([0x01, 0x00])) == [.binary(Fixtures.clientAudio16k)])
        // RTVI client-ready, in a transport message, as Pipecat's own clients announce themselves.
        let open = codec.framesOnOpen()
        #expect(open == [PipecatWireFrame.message(json: PipecatRTVI.clientReady(id: "vload-client-ready"))])
        #expect(PipecatRTVI.clientReady(id: "x").contains(#""version":"2.2.0""#))
    }

    @Test func interruptAndTextHaveFramesTheOthersNone() {
        var codec = PipecatProtobufClientDialect().makeCodec(parameters: [:])
        // Frame{interruption{name: "InterruptionFrame#0"}} and Frame{text{text: "hello"}}.
        let interruption: [UInt8] = [0x2A, 0x15, 0x12, 0x13] + Array("InterruptionFrame#0".utf8)
        #expect(codec.frames(for: .interrupt) == [.binary(interruption)])
        #expect(codec.frames(for: .text("hello")) == [.binary([0x0A, 0x07, 0x1A, 0x05] + Array("hello".utf8))])
        for intent: ClientIntent in [.start(parameters: [:]), .commit, .keepAlive, .stop, .markPlayed(name: "m"), .dtmf(digit: "1")] {
            #expect(codec.frames(for: intent) == [], "\(intent)")
        }
    }

    @Test func sampleRateComesFromTheScenario() throws {
        let configured = try PipecatProtobufClientDialect().configured(parameters: ["sample_rate": .number(8_000)], url: "")
        #expect(configured.inputFormat == .pcm16(8_000))
        var codec = configured.makeCodec(parameters: [:])
        // sample_rate 8000 is field 4, varint 0xC0 0x3E.
        #expect(codec.frames(for: .audio([0, 0])) == [.binary([0x12, 0x09, 0x1A, 0x02, 0, 0, 0x20, 0xC0, 0x3E, 0x28, 0x01])])
        #expect(throws: InputError.self) {
            try PipecatProtobufClientDialect().configured(parameters: ["sample_rate": .string("fast")], url: "")
        }
        #expect(try PipecatProtobufClientDialect().configured(parameters: [:], url: "").inputFormat == .pcm16(16_000))
    }

    @Test func decodesWhatPipecatsSerializerSends() {
        var codec = PipecatProtobufClientDialect().makeCodec(parameters: [:])
        let audio = AgentAudioChunk(audio: [0x01, 0x00, 0xFF, 0x7F], format: .pcm16(24_000))
        #expect(codec.receive(.binary(Fixtures.audio24k)).events == [.agentAudio(audio)])
        #expect(audio.durationUs == 83)
        #expect(codec.receive(.binary(Fixtures.interruption)).events == [.agentInterrupted])
        #expect(codec.receive(.binary(Fixtures.transcription)).events == [.transcript(role: "user", text: "hi there", isFinal: true)])
        #expect(codec.receive(.binary(Fixtures.text)).events == [.transcript(role: "agent", text: "Sunny.", isFinal: true)])
        #expect(codec.receive(.binary(Fixtures.userStartedSpeaking)).events == [.userSpeechStarted])
    }

    @Test func audioIsTimedByTheFramesOwnRateAndChannels() {
        var codec = PipecatProtobufClientDialect().makeCodec(parameters: [:])
        // 8 bytes at 8 kHz stereo: 2 frames of 2 samples, 250 µs.
        let stereo: [UInt8] = [0x12, 0x0F, 0x1A, 0x08] + [1, 0, 1, 0, 1, 0, 1, 0] + [0x20, 0xC0, 0x3E, 0x28, 0x02]
        guard case .agentAudio(let chunk)? = codec.receive(.binary(stereo)).events.first else {
            Issue.record("no agent audio")
            return
        }
        #expect(chunk.byteCount == 8 && chunk.durationUs == 250)
    }

    @Test func transportMessagesAreReadAsRTVIEvents() {
        let cases: [(String, NormalizedEvent)] = [
            (#"{"label":"rtvi-ai","type":"user-stopped-speaking"}"#, .userSpeechStopped),
            (
                #"{"label":"rtvi-ai","type":"user-transcription","data":{"text":"hi","final":false}}"#,
                .transcript(role: "user", text: "hi", isFinal: false)
            ),
            (#"{"label":"rtvi-ai","type":"error","data":{"error":"boom","fatal":true}}"#, .error(code: nil, message: "boom", fatal: true)),
            (#"{"label":"rtvi-ai","type":"bot-output"}"#, .unknown(type: "message bot-output")),
            (#"{"hello":1}"#, .unknown(type: "message")),
        ]
        for (json, event) in cases {
            #expect(PipecatTransportMessage.events(json: json) == [event], "\(json)")
        }
        // The answer to vload's client-ready: known, nothing measured.
        #expect(PipecatTransportMessage.events(json: #"{"label":"rtvi-ai","type":"bot-ready","data":{"version":"2.2.0"}}"#).isEmpty)
        guard case .malformed? = PipecatTransportMessage.events(json: "[1").first else {
            Issue.record("non-JSON message data must be malformed")
            return
        }
    }

    @Test func whatIsNotAPipecatFrameIsMalformedNeverACrash() {
        var codec = PipecatProtobufClientDialect().makeCodec(parameters: [:])
        let frames: [WireFrame] = [
            .text(#"{"type":"audio"}"#), .binary([0xFF, 0xFF, 0xFF]), .binary([0x12, 0x05, 0x1A]),
            .binary([]),  // an empty Frame: nothing set
            .binary([0x12, 0x04, 0x1A, 0x02, 0x01, 0x00]),  // audio without a sample rate
            .binary([0x32, 0x00]),  // field 6, a kind this version does not know
        ]
        for frame in frames {
            #expect(DialectTestSupport.isSingleMalformed(codec.receive(frame).events), "\(frame)")
        }
        // Audio with no samples is nothing to play.
        #expect(codec.receive(.binary([0x12, 0x05, 0x20, 0x80, 0x7D, 0x28, 0x01])).events == [])
    }
}
