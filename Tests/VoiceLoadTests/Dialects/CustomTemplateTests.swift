import Testing

@testable import VoiceLoad

/// The template language of docs/custom-dialects.md: escaping, type suffixes, counters.
@Suite("Custom dialect: templates")
struct CustomTemplateTests {
    typealias Support = CustomDialectTestSupport

    /// A dialect whose audio goes out through `audioJSON`, with `send` as given.
    func dialect(
        audioJSON: String = #"{"d": "${audio.b64}"}"#,
        send: String = "",
        environment: [String: String] = [:]
    ) throws -> CustomDialect {
        try CustomDialect.parse(
            yaml: """
                dialect: t
                audio:
                  input: {encoding: pcm16le, sample_rate: 16000, frame_ms: 20, transport: json, json: \(audioJSON)}
                \(send)
                """,
            path: "t.yaml",
            environment: environment
        )
    }

    @Test func stringsAreEscapedIntoJSON() throws {
        let tricky = "quote \" backslash \\ slash / newline \n cr \r tab \t bell \u{7} nul \u{0} é 🎙 ${x}"
        let custom = try dialect(send: #"send: {interrupt: {"type": "say", "text": "«${session.line}»", "n": "${session.line:json}"}}"#)
        var codec = custom.makeCodec(parameters: ["line": .string(tricky)])
        let frame = try #require(codec.frames(for: .interrupt).first)
        #expect(
            DialectTestSupport.json(frame)
                == .object([
                    "type": .string("say"), "text": .string("«\(tricky)»"), "n": .string(tricky),
                ])
        )
    }

    @Test func userTextIsEscaped() throws {
        let custom = try dialect(send: #"send: {text: {"type": "text", "payload": {"text": "${text}"}}}"#)
        var codec = custom.makeCodec(parameters: [:])
        let text = "He said \"hi\"\n\\o/"
        #expect(
            DialectTestSupport.json(codec.frames(for: .text(text)).first)
                == .object(["type": .string("text"), "payload": .object(["text": .string(text)])])
        )
    }

    @Test func literalsKeepTheirJSONTypesAndQuotedScalarsAreStrings() throws {
        let custom = try dialect(
            send: #"send: {close: {"a": 1, "b": 2.5, "c": true, "d": null, "e": "1", "f": "true", "g": [1, "x"], "h": {}}}"#
        )
        var codec = custom.makeCodec(parameters: [:])
        #expect(
            DialectTestSupport.json(codec.frames(for: .stop).first)
                == DialectTestSupport.json(
                    #"{"a":1,"b":2.5,"c":true,"d":null,"e":"1","f":"true","g":[1,"x"],"h":{}}"#
                )
        )
    }

    @Test func typeSuffixesReplaceTheWholeValue() throws {
        let custom = try dialect(
            send: """
                send:
                  interrupt: {"seq": "${seq:int}", "n": "${session.n:int}", "s": "${session.s:int}", "bad": "${session.word:int}",
                              "obj": "${session.o:json}", "all": "${session:json}", "missing": "${session.none:json}",
                              "text": "n=${session.n}", "plain": "${session.o}"}
                """
        )
        let parameters: [String: JSONValue] = [
            "n": .number(7), "s": .string("42"), "word": .string("x"), "o": .object(["k": .array([.bool(true)])]),
        ]
        var codec = custom.makeCodec(parameters: parameters)
        let json = DialectTestSupport.json(codec.frames(for: .interrupt).first)
        #expect(
            json
                == .object([
                    "seq": .number(1), "n": .number(7), "s": .number(42), "bad": .null,
                    "obj": .object(["k": .array([.bool(true)])]), "all": .object(parameters), "missing": .null,
                    "text": .string("n=7"), "plain": .string(#"{"k":[true]}"#),
                ])
        )
    }

    @Test func seqCountsOnlyFramesWhoseTemplateUsesIt() throws {
        let custom = try dialect(
            send: """
                send:
                  on_open: [{"event": "connected"}, {"event": "start", "sequenceNumber": "${seq}"}]
                  interrupt: {"event": "clear", "n": "${seq:int}"}
                  close: {"event": "stop", "n": "${seq:int}"}
                  commit: {"event": "commit"}
                """
        )
        var codec = custom.makeCodec(parameters: [:])
        let opening = codec.framesOnOpen().map(DialectTestSupport.json)
        #expect(
            opening == [.object(["event": .string("connected")]), .object(["event": .string("start"), "sequenceNumber": .string("1")])]
        )
        _ = codec.frames(for: .commit)
        #expect(DialectTestSupport.json(codec.frames(for: .interrupt).first) == .object(["event": .string("clear"), "n": .number(2)]))
        #expect(DialectTestSupport.json(codec.frames(for: .stop).first) == .object(["event": .string("stop"), "n": .number(3)]))
        var second = custom.makeCodec(parameters: [:])
        #expect(
            DialectTestSupport.json(second.frames(for: .stop).first) == .object(["event": .string("stop"), "n": .number(1)]),
            "counters are per codec"
        )
    }

    @Test func audioOnlyTemplatesAreBuiltOncePerRun() throws {
        let custom = try dialect(audioJSON: #"{"type": "audio", "payload": {"data": "${audio.b64}"}, "url": "${audio.b64url}"}"#)
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0x00]
        let prepared = custom.prepareAudio(bytes)
        let shared = try #require(prepared.sharedFrame)
        #expect(prepared.base64 == nil)
        #expect(Support.wireFrame(shared) == .text(#"{"type":"audio","payload":{"data":"+/+/AA=="},"url":"-_-_AA"}"#))
        var codec = custom.makeCodec(parameters: [:])
        #expect(Support.wireFrame(codec.audioFrame(prepared)) == Support.wireFrame(shared))
    }

    @Test func perSendVariablesBuildEachAudioFrame() throws {
        let custom = try dialect(
            audioJSON:
                #"{"event": "media", "sequenceNumber": "${seq}", "media": {"chunk": "${chunk}", "timestamp": "${ts_ms}", "payload": "${audio.b64}"}}"#
        )
        let frame = [UInt8](repeating: 0, count: 640)  // 20 ms at 16 kHz
        let prepared = custom.prepareAudio(frame)
        #expect(prepared.sharedFrame == nil)
        #expect(prepared.base64 == DialectTestSupport.base64(frame))
        var codec = custom.makeCodec(parameters: [:])
        for index in 1...3 {
            let json = DialectTestSupport.json(Support.wireFrame(codec.audioFrame(prepared)))
            #expect(
                json
                    == .object([
                        "event": .string("media"), "sequenceNumber": .string("\(index)"),
                        "media": .object([
                            "chunk": .string("\(index)"), "timestamp": .string("\((index - 1) * 20)"),
                            "payload": .string(DialectTestSupport.base64(frame)),
                        ]),
                    ])
            )
        }
        let viaIntent = DialectTestSupport.json(codec.frames(for: .audio(frame)).first)
        #expect(
            viaIntent
                == .object([
                    "event": .string("media"), "sequenceNumber": .string("4"),
                    "media": .object([
                        "chunk": .string("4"), "timestamp": .string("60"), "payload": .string(DialectTestSupport.base64(frame)),
                    ]),
                ])
        )
    }

    @Test func binaryTransportSendsTheBytes() throws {
        let custom = try Support.dialect("")
        let prepared = custom.prepareAudio([1, 2, 3])
        #expect(Support.wireFrame(try #require(prepared.sharedFrame)) == .binary([1, 2, 3]))
        var codec = custom.makeCodec(parameters: [:])
        #expect(codec.frames(for: .audio([4, 5])) == [.binary([4, 5])])
    }

    @Test func environmentIsResolvedAtLoad() throws {
        let custom = try dialect(
            send: """
                connect:
                  headers: {Authorization: "Bearer ${env.TOKEN}", X-Port: "${env.PORT:int}"}
                  subprotocols: ["token", "${env.TOKEN}"]
                send: {on_open: [{"key": "${env.TOKEN}", "port": "${env.PORT:int}"}]}
                """,
            environment: ["TOKEN": "s3cr\"t", "PORT": "8080"]
        )
        #expect(custom.headers.map(\.0) == ["Authorization", "X-Port"])
        #expect(custom.headers.map(\.1) == ["Bearer s3cr\"t", "8080"])
        #expect(custom.subprotocols == ["token", "s3cr\"t"])
        var codec = custom.makeCodec(parameters: [:])
        #expect(DialectTestSupport.json(codec.framesOnOpen().first) == .object(["key": .string("s3cr\"t"), "port": .number(8080)]))
    }

    @Test func rawTextTemplatesAndEscapedDollars() throws {
        let custom = try dialect(send: #"send: {keepalive: {every_ms: 5000, json: "PING ${seq} $${literal}"}, message_frames: binary}"#)
        #expect(custom.keepAliveRule == CustomKeepAlive(everyMs: 5_000, onlyWhenIdle: false))
        #expect(custom.keepAlive == KeepAlivePolicy(everyMs: 5_000, whileStreaming: true))
        var codec = custom.makeCodec(parameters: [:])
        #expect(codec.frames(for: .keepAlive) == [.binary(Array("PING 1 ${literal}".utf8))])
        #expect(codec.frames(for: .keepAlive) == [.binary(Array("PING 2 ${literal}".utf8))])
    }
}
