import Testing
import WSCore

@testable import VoiceLoad

/// `dialects/datagrid.yaml` must mean what the built-in Datagrid dialect means: the same
/// events for every server frame of the Datagrid tests, the same messages for every intent.
@Suite("Custom dialect: dialects/datagrid.yaml matches the built-in datagrid dialect")
struct CustomDatagridEquivalenceTests {
    typealias Support = CustomDialectTestSupport
    let native = DatagridClientDialect()

    /// Server frames from the Datagrid decoding tests: every message type and variant,
    /// unknown types and malformed frames.
    static let serverFrames: [String] = [
        #"{"type":"started","payload":{"session_id":"sess_123","conversation_id":"conv_456"}}"#,
        #"{"type":"started"}"#,
        #"{"type":"ready"}"#,
        #"{"type":"audio","payload":{"data":"\#(DialectTestSupport.base64(DialectTestSupport.bytes(count: 960, seed: 3)))"}}"#,
        #"{"type":"audio","payload":{"data":"AAAAAA=="}}"#,
        #"{"type":"audio","payload":{"data":""}}"#,
        #"{"type":"audio","payload":{}}"#,
        #"{"type":"audio","payload":{"data":null}}"#,
        #"{"type":"audio"}"#,
        #"{"type":"audio","payload":null}"#,
        #"{"type":"tool_call","payload":{"tool_name":"search_docs","status":"started"}}"#,
        #"{"type":"tool_call","payload":{"tool_name":"t","status":"completed"}}"#,
        #"{"type":"tool_call","payload":{"name":"alt_name"}}"#,
        #"{"type":"tool_call"}"#,
        #"{"type":"interrupted"}"#,
        #"{"type":"error","payload":{"message":"Agent not found"}}"#,
        #"{"type":"error"}"#,
        #"{"type":"transcript","payload":{"role":"user","text":"Hello there","is_final":false}}"#,
        #"{"type":"transcript","payload":{"role":"agent","text":"Hi!","final":false}}"#,
        #"{"type":"transcript","payload":{"role":"agent","text":"Hi!","isFinal":true}}"#,
        #"{"type":"transcript","payload":{"role":"assistant","text":"Sure."}}"#,
        #"{"type":"transcript","payload":{"text":"no role"}}"#,
        #"{"type":"transcript","payload":{"speaker":"user","transcript":"alt keys"}}"#,
        #"{"type":"transcript","payload":{"role":"user"}}"#,
        #"{"type":"transcript"}"#,
        #"{"type":"citation","payload":{"source":"doc.pdf","page":3}}"#,
        #"{"type":"citation","payload":{}}"#,
        #"{"type":"ended","payload":{"transcript":[{"role":"user","text":"Hi"},{"role":"agent","text":"Hello!"}]}}"#,
        #"{"type":"ended","payload":{"transcript":[]}}"#,
        #"{"type":"pong","payload":{"t":1}}"#,
        #"{"type":"mystery"}"#,
        #"{"type":""}"#,
        "",
        "not json",
        "[1,2,3]",
        #""ready""#,
        "42",
        "null",
        #"{"payload":{"data":"AAAA"}}"#,
        #"{"type":7}"#,
        #"{"type":null}"#,
        #"{"type":["audio"]}"#,
        #"{"type":"audio","payload":{"data":"!!!not base64"}}"#,
        #"{"type":"audio","payload":{"data":"AAA"}}"#,
        #"{"type":"audio","payload":{"data":12}}"#,
        #"{"type":"audio","payload":{"data":"AAAA"}"#,
        #"{"type":"audio","payload":{"da"#,
        #"{"type":"ready""#,
        String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
    ]

    @Test func everyServerFrameDecodesTheSameInTextAndBinaryFrames() throws {
        let custom = try Support.datagrid()
        var codec = custom.makeCodec(parameters: [:])
        for text in Self.serverFrames {
            for frame in [WireFrame.text(text), .binary(Array(text.utf8))] {
                let decoded = codec.receive(frame)
                #expect(Support.normalized(decoded.events) == Support.normalized(native.decode(frame)), "\(text.prefix(100))")
                #expect(decoded.replies.isEmpty)
            }
        }
    }

    @Test func invalidUTF8IsMalformedOnBothSides() throws {
        let custom = try Support.datagrid()
        for bytes: [UInt8] in [[0x7B, 0xFF, 0xFE, 0x7D], [0x00]] {
            #expect(Support.normalized(Support.events(custom, .binary(bytes))) == [.malformed(reason: "")])
            #expect(Support.normalized(native.decode(.binary(bytes))) == [.malformed(reason: "")])
        }
    }

    @Test func audioFramesInEverySpellingDecodeTheSame() throws {
        let custom = try Support.datagrid()
        var codec = custom.makeCodec(parameters: [:])
        for size in [0, 1, 2, 3, 4, 5, 33, 960] {
            let bytes = DialectTestSupport.bytes(count: size, seed: UInt64(size))
            for text in DatagridAudioFastPathTests.spellings(of: bytes) {
                let frame = WireFrame.text(text)
                #expect(Support.normalized(codec.receive(frame).events) == Support.normalized(native.decode(frame)), "\(text.prefix(100))")
            }
        }
    }

    @Test func serverOutputRoundTripsToTheSameEvents() throws {
        let custom = try Support.datagrid()
        var codec = custom.makeCodec(parameters: [:])
        let server = DatagridServerDialect()
        let outputs: [AgentOutput] = [
            .sessionStarted(sessionID: "s", conversationID: "c"), .ready, .audio(DialectTestSupport.bytes(count: 480, seed: 5)),
            .interrupted, .toolCall(name: "search", status: "completed"),
            .transcript(TranscriptLine(role: "user", text: "Wie geht's? \"ok\"", isFinal: false)),
            .error(code: nil, message: "quota exceeded\nretry later"), .ended(transcript: [TranscriptLine(role: "user", text: "bye")]),
        ]
        for output in outputs {
            let frame = try #require(server.encode(output))
            #expect(codec.receive(frame).events == native.decode(frame), "\(output)")
        }
    }

    /// The YAML does not check the shape of parts it does not read.
    @Test func payloadShapesItDoesNotReadAreNotChecked() throws {
        let custom = try Support.datagrid()
        #expect(Support.events(custom, .text(#"{"type":"ready","payload":"x"}"#)) == [.sessionReady])
        #expect(Support.events(custom, .text(#"{"type":"started","payload":[1]}"#)) == [.sessionStarted(ids: [:])])
        #expect(Support.events(custom, .text(#"{"type":"audio","payload":"x"}"#)) == [])
    }

    @Test func descriptionMatchesTheProtocol() throws {
        let custom = try Support.datagrid()
        #expect(custom.id == "datagrid-generic")
        #expect(custom.inputFormat == native.inputFormat)
        #expect(custom.outputFormat == native.outputFormat)
        #expect(custom.readySignal == native.readySignal)
        #expect(custom.turnEndSignal == native.turnEndSignal)
        #expect(custom.defaultFrameMs == 40)
        #expect(custom.repliesWithAudio)
        #expect(custom.authentication == .none)
        #expect(custom.quietMs == 500)
        #expect(custom.url == nil, "DATAGRID_API_KEY is not set")
        let withKey = try CustomDialect.load(path: Support.datagridPath, environment: ["DATAGRID_API_KEY": "k&1"])
        #expect(withKey.url == "wss://api.datagrid.com/ws/voice?token=k&1")
    }

    @Test func openingFramesAreTheStartMessage() throws {
        let custom = try Support.datagrid()
        let parameterSets: [[String: JSONValue]] = [
            [:],
            ["agent_id": .string("agent_abc123"), "conversation_id": .string("conv_42")],
            [
                "ephemeral": .bool(true), "file_ids": .array([.string("f1")]), "user": .null,
                "voice_config": .object(["silence_discard_ratio": .number(0.9), "voice_preset": .string("sage \"q\"")]),
            ],
            ["a": .number(.nan), "b": .array([.number(.infinity), .number(1)])],
        ]
        for parameters in parameterSets {
            var codec = custom.makeCodec(parameters: parameters)
            let expected = native.openingFrames(parameters: parameters).map(DialectTestSupport.json)
            #expect(codec.framesOnOpen().map(DialectTestSupport.json) == expected)
            #expect(codec.frames(for: .start(parameters: parameters)).map(DialectTestSupport.json) == expected)
        }
    }

    @Test func audioIsTheSameSharedFrame() throws {
        let custom = try Support.datagrid()
        var codec = custom.makeCodec(parameters: [:])
        for bytes in [[], [0x00, 0x01, 0xFF, 0xFE, 0x10], DialectTestSupport.bytes(count: 1_280, seed: 7)] as [[UInt8]] {
            let prepared = custom.prepareAudio(bytes)
            let nativePrepared = native.prepareAudio(bytes)
            #expect(prepared.sharedFrame != nil)
            #expect(prepared.byteCount == bytes.count)
            let sent = Support.wireFrame(codec.audioFrame(prepared))
            #expect(sent == Support.wireFrame(try #require(nativePrepared.sharedFrame)))
            #expect(codec.frames(for: .audio(bytes)) == [native.encode(.audio(bytes))].compactMap { $0 })
        }
    }

    @Test func interruptStopAndTextAreTheSame() throws {
        let custom = try Support.datagrid()
        var codec = custom.makeCodec(parameters: [:])
        let tricky = "quote \" backslash \\ slash / newline \n tab \t bell \u{7} é 🎙"
        for intent in [ClientIntent.interrupt, .stop, .text("What's the weather?"), .text(tricky)] {
            let frames = codec.frames(for: intent)
            #expect(frames.count == 1)
            #expect(DialectTestSupport.text(frames.first) != nil)
            #expect(DialectTestSupport.json(frames.first) == DialectTestSupport.json(native.encode(intent)), "\(intent)")
        }
        #expect(codec.frames(for: .commit) == [])
        #expect(codec.frames(for: .keepAlive) == [])
        #expect(codec.frames(for: .markPlayed(name: "m")) == [])
    }
}
