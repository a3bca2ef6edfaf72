import Testing

@testable import VoiceLoad

@Suite("Datagrid server dialect (agent simulator side)")
struct DatagridServerDialectTests {
    typealias Support = DialectTestSupport
    let dialect = DatagridServerDialect()

    @Test func defaults() {
        #expect(dialect.id == "datagrid")
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
    }

    // MARK: decoding client messages

    @Test func startFromSection4_2() throws {
        let intents = try dialect.decode(.text(#"{"type":"start","payload":{"agent_id":"agent_abc123","conversation_id":"conv_1"}}"#))
        #expect(intents == [.start(parameters: ["agent_id": .string("agent_abc123"), "conversation_id": .string("conv_1")])])
    }

    @Test func startPayloadKeepsEveryJSONKind() throws {
        let intents = try dialect.decode(
            .text(
                #"""
                {"type":"start","payload":{"ephemeral":true,"n":0,"one":1,"ratio":0.9,"none":null,
                 "ids":["a",false],"voice_config":{"silent_start":false,"voice_preset":"nova"}}}
                """#
            )
        )
        #expect(
            intents == [
                .start(parameters: [
                    "ephemeral": .bool(true), "n": .number(0), "one": .number(1), "ratio": .number(0.9), "none": .null,
                    "ids": .array([.string("a"), .bool(false)]),
                    "voice_config": .object(["silent_start": .bool(false), "voice_preset": .string("nova")]),
                ])
            ]
        )
    }

    @Test func startWithoutPayloadHasNoParameters() throws {
        #expect(try dialect.decode(.text(#"{"type":"start"}"#)) == [.start(parameters: [:])])
        #expect(try dialect.decode(.text(#"{"type":"start","payload":null}"#)) == [.start(parameters: [:])])
    }

    @Test func audio() throws {
        let bytes = Support.bytes(count: 1_280, seed: 7)
        let frame = #"{"type":"audio","payload":{"data":"\#(Support.base64(bytes))"}}"#
        #expect(try dialect.decode(.text(frame)) == [.audio(bytes)])
        #expect(try dialect.decode(.binary(Array(frame.utf8))) == [.audio(bytes)])
    }

    @Test func audioWithEmptyDataCarriesNoIntent() throws {
        #expect(try dialect.decode(.text(#"{"type":"audio","payload":{"data":""}}"#)) == [])
    }

    @Test func interruptStopText() throws {
        #expect(try dialect.decode(.text(#"{"type":"interrupt"}"#)) == [.interrupt])
        #expect(try dialect.decode(.text(#"{"type":"stop"}"#)) == [.stop])
        #expect(try dialect.decode(.text(#"{"type":"text","payload":{"text":"hello \"agent\""}}"#)) == [.text("hello \"agent\"")])
        #expect(try dialect.decode(.binary(Array(#"{"type":"stop"}"#.utf8))) == [.stop])
    }

    @Test func unknownTypeThrowsUnknownType() {
        #expect(throws: DialectDecodingError.unknownType("ping")) {
            try dialect.decode(.text(#"{"type":"ping"}"#))
        }
        // A server message sent to the server is not a client message.
        #expect(throws: DialectDecodingError.unknownType("ready")) {
            try dialect.decode(.text(#"{"type":"ready"}"#))
        }
    }

    @Test(arguments: [
        "", "garbage", "[]", #"{"payload":{}}"#, #"{"type":1}"#, #"{"type":"stop""#,
        #"{"type":"audio","payload":{"data":"%%%"}}"#, #"{"type":"audio","payload":{}}"#,
        #"{"type":"audio"}"#, #"{"type":"audio","payload":{"data":5}}"#,
        #"{"type":"text"}"#, #"{"type":"text","payload":{"text":3}}"#, #"{"type":"start","payload":"x"}"#,
    ])
    func garbageThrowsMalformed(frame: String) {
        do {
            _ = try dialect.decode(.text(frame))
            Issue.record("no error for \(frame)")
        } catch {
            guard case .malformed = error else {
                Issue.record("expected .malformed for \(frame), got \(error)")
                return
            }
        }
    }

    // MARK: encoding agent output

    @Test func encodesEveryOutputAsDocumented() {
        let cases: [(AgentOutput, String)] = [
            (
                .sessionStarted(sessionID: "sess_1", conversationID: "conv_1"),
                #"{"type":"started","payload":{"session_id":"sess_1","conversation_id":"conv_1"}}"#
            ),
            (.ready, #"{"type":"ready"}"#),
            (.interrupted, #"{"type":"interrupted"}"#),
            (
                .toolCall(name: "lookup", status: "started"),
                #"{"type":"tool_call","payload":{"tool_name":"lookup","status":"started"}}"#
            ),
            (
                .toolCall(name: "lookup", status: "completed", id: "c1", arguments: #"{"q":1}"#),
                #"{"type":"tool_call","payload":{"tool_name":"lookup","status":"completed","id":"c1","arguments":{"q":1}}}"#
            ),
            (
                .transcript(TranscriptLine(role: "agent", text: "Hi", isFinal: false)),
                #"{"type":"transcript","payload":{"role":"agent","text":"Hi","is_final":false}}"#
            ),
            (.error(code: nil, message: "Agent not found"), #"{"type":"error","payload":{"message":"Agent not found"}}"#),
            (
                .ended(transcript: [TranscriptLine(role: "user", text: "Hi"), TranscriptLine(role: "agent", text: "Hello")]),
                #"{"type":"ended","payload":{"transcript":[{"role":"user","text":"Hi"},{"role":"agent","text":"Hello"}]}}"#
            ),
            (.ended(transcript: []), #"{"type":"ended","payload":{"transcript":[]}}"#),
        ]
        for (output, expected) in cases {
            let frame = dialect.encode(output)
            #expect(Support.text(frame) != nil, "\(output) must be a text frame")
            #expect(Support.json(frame) == Support.json(expected), "\(output)")
        }
    }

    @Test func audioHasTheExactDocumentedText() {
        #expect(dialect.encode(.audio([0xFB, 0xFF])) == .text(#"{"type":"audio","payload":{"data":"+/8="}}"#))
    }

    @Test func stringsAreEscaped() {
        let tricky = "line1\nline2 \"quoted\" back\\slash /slash \u{0} \u{1F} ünï 🎧"
        let frame = dialect.encode(.error(code: nil, message: tricky))
        #expect(Support.json(frame) == .object(["type": .string("error"), "payload": .object(["message": .string(tricky)])]))
    }

    @Test func binaryOptionSendsJSONInBinaryFrames() {
        let binary = DatagridServerDialect(sendsJSONAsBinary: true)
        for output in [AgentOutput.ready, .audio([1, 2]), .error(code: nil, message: "x"), .ended(transcript: [])] {
            guard case .text(let text) = dialect.encode(output) else {
                Issue.record("default must be text")
                continue
            }
            #expect(binary.encode(output) == .binary(Array(text.utf8)))
        }
    }
}
