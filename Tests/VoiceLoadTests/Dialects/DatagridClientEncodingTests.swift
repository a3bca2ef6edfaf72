import Testing

@testable import VoiceLoad

@Suite("Datagrid client dialect: configuration and encoding")
struct DatagridClientEncodingTests {
    typealias Support = DialectTestSupport
    let dialect = DatagridClientDialect()

    @Test func defaultsMatchTheProtocol() {
        #expect(dialect.id == "datagrid")
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
        #expect(dialect.readySignal == .event)
        #expect(dialect.turnEndSignal == .audioGap)
        #expect(dialect.sendsJSONAsBinary == false)
    }

    @Test func formatsAreConfigurable() {
        let custom = DatagridClientDialect(inputFormat: .pcm16(24_000), outputFormat: .pcm16(16_000))
        #expect(custom.inputFormat == .pcm16(24_000))
        #expect(custom.outputFormat == .pcm16(16_000))
    }

    @Test func openingFrameIsTheStartMessageOfSection4_2() {
        let parameters: [String: JSONValue] = [
            "agent_id": .string("agent_abc123"),
            "conversation_id": .string("conv_42"),
        ]
        let frames = dialect.openingFrames(parameters: parameters)
        #expect(frames.count == 1)
        #expect(Support.text(frames.first) != nil)
        #expect(
            Support.json(frames.first)
                == Support.json(
                    #"{"type":"start","payload":{"agent_id":"agent_abc123","conversation_id":"conv_42"}}"#
                )
        )
        #expect(dialect.encode(.start(parameters: parameters)) == frames.first)
    }

    @Test func startCarriesNestedParametersOfEveryJSONKind() {
        let parameters: [String: JSONValue] = [
            "ephemeral": .bool(true),
            "voice_config": .object([
                "silent_start": .bool(false),
                "segment_max_duration_ms": .number(180_000),
                "silence_discard_ratio": .number(0.9),
                "voice_preset": .string("sage"),
            ]),
            "file_ids": .array([.string("f1"), .string("f2")]),
            "user": .null,
        ]
        let frame = dialect.encode(.start(parameters: parameters))
        #expect(
            Support.json(frame)
                == Support.json(
                    """
                    {"type":"start","payload":{"ephemeral":true,"file_ids":["f1","f2"],"user":null,
                     "voice_config":{"silent_start":false,"segment_max_duration_ms":180000,
                                     "silence_discard_ratio":0.9,"voice_preset":"sage"}}}
                    """
                )
        )
    }

    @Test func startWithoutParametersHasAnEmptyPayload() {
        let frame = dialect.openingFrames(parameters: [:]).first
        #expect(Support.json(frame) == Support.json(#"{"type":"start","payload":{}}"#))
    }

    @Test func nonFiniteNumbersInParametersAreSentAsNull() {
        let frame = dialect.encode(
            .start(parameters: [
                "a": .number(.nan), "b": .array([.number(.infinity), .number(1)]),
            ])
        )
        #expect(Support.json(frame) == Support.json(#"{"type":"start","payload":{"a":null,"b":[null,1]}}"#))
    }

    @Test func audioFrameHasTheExactDocumentedText() {
        let frame = dialect.encode(.audio([0x00, 0x01, 0xFF, 0xFE, 0x10]))
        #expect(frame == .text(#"{"type":"audio","payload":{"data":"AAH//hA="}}"#))
    }

    @Test func emptyAudioEncodesEmptyData() {
        #expect(dialect.encode(.audio([])) == .text(#"{"type":"audio","payload":{"data":""}}"#))
    }

    @Test func interruptStopAndText() {
        #expect(Support.json(dialect.encode(.interrupt)) == Support.json(#"{"type":"interrupt"}"#))
        #expect(Support.json(dialect.encode(.stop)) == Support.json(#"{"type":"stop"}"#))
        #expect(
            Support.json(dialect.encode(.text("What's the weather?")))
                == Support.json(#"{"type":"text","payload":{"text":"What's the weather?"}}"#)
        )
    }

    @Test func textIsEscapedAsJSONRequires() {
        let tricky = "quote \" backslash \\ slash / newline \n tab \t bell \u{7} é 🎙"
        let frame = dialect.encode(.text(tricky))
        #expect(Support.json(frame) == .object(["type": .string("text"), "payload": .object(["text": .string(tricky)])]))
    }

    @Test(arguments: [
        ClientIntent.start(parameters: ["agent_id": .string("a")]),
        .audio([1, 2, 3]), .interrupt, .stop, .text("hi"),
    ])
    func binaryOptionSendsTheSameJSONInBinaryFrames(intent: ClientIntent) {
        let binary = DatagridClientDialect(sendsJSONAsBinary: true).encode(intent)
        let text = dialect.encode(intent)
        guard case .binary(let bytes)? = binary, case .text(let string)? = text else {
            Issue.record("expected a binary and a text frame, got \(String(describing: binary)), \(String(describing: text))")
            return
        }
        #expect(bytes == Array(string.utf8))
    }
}
