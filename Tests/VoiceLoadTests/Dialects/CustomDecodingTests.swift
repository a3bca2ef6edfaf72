import Testing

@testable import VoiceLoad

/// Inbound frames to events: every rule on every frame, in a fixed order; audio extraction;
/// unknown and malformed frames (docs/custom-dialects.md).
@Suite("Custom dialect: decoding")
struct CustomDecodingTests {
    typealias Support = CustomDialectTestSupport

    /// An ADK-events-like dialect: one frame may carry audio, transcripts and turn flags.
    static let adkLike = """
        dialect: adk-like
        audio:
          input: {encoding: pcm16le, sample_rate: 16000, transport: binary}
          output:
            encoding: pcm16le
            sample_rate: 24000
            extract:
              - when: {"$.content.parts[*].inlineData.mimeType": {prefix: "audio/pcm"}}
                data: "$.content.parts[*].inlineData.data"
                encoding: base64url
                turn_key: "$.invocationId"
        events:
          session.ended: {match: {"$.type": "bye"}, reason: "$.why"}
          turn.complete: {match: {"$.turnComplete": true}, turn_key: "$.invocationId"}
          agent.interrupted: {match: {"$.interrupted": {truthy: true}}}
          agent.speech_started: {match: {"$.speaking": "start"}}
          transcript:
            - {match: {"$.inputTranscription.text": {exists: true}}, role: {const: user},
               text: "$.inputTranscription.text", final: ["$.inputTranscription.finished", {const: false}]}
            - {match: {"$.outputTranscription.text": {exists: true}}, role: {const: agent},
               text: "$.outputTranscription.text", final: true}
          tool.call: [{match: {"$.call": {exists: true}}, name: "$.call.name", status: {const: started}, args: "$.call.args"}]
          error: [{match: {"$.error": {exists: true}}, code: "$.error.code", message: "$.error.message", fatal: "$.error.fatal"}]
          user.speech_started: {match: {"$.vad": "start"}}
          user.speech_stopped: {match: {"$.vad": "stop"}}
          session.started: {match: {"$.type": "hello"}, ids: {session: "$.id", number: "$.n"}}
          session.ready: {match: {"$.type": "hello"}}
        """

    @Test func oneFrameEmitsEveryMatchingEventInTheDocumentedOrder() throws {
        let dialect = try CustomDialect.parse(yaml: Self.adkLike, path: "t.yaml", environment: [:])
        let frame = """
            {"invocationId":"inv-1","turnComplete":true,"interrupted":1,"speaking":"start","vad":"stop",
             "content":{"parts":[{"inlineData":{"mimeType":"audio/pcm;rate=24000","data":"AAEC"}},
                                 {"text":"x"},{"inlineData":{"mimeType":"audio/pcm","data":"AwQ"}}]},
             "outputTranscription":{"text":"Hello"},"inputTranscription":{"text":"Hi","finished":true},
             "call":{"name":"lookup","args":{"q":1}},"error":{"code":429,"message":"slow down"},
             "type":"bye","why":"done"}
            """
        #expect(
            Support.events(dialect, .text(frame)) == [
                .userSpeechStopped,
                .agentInterrupted,
                .agentSpeechStarted(turnKey: nil),
                .agentAudio(AgentAudioChunk(audio: [0, 1, 2, 3, 4], format: .pcm16(24_000), turnKey: "inv-1")),
                .transcript(role: "user", text: "Hi", isFinal: true),
                .transcript(role: "agent", text: "Hello", isFinal: true),
                .toolCall(name: "lookup", status: "started"),
                .turnComplete(turnKey: "inv-1"),
                .error(code: "429", message: "slow down", fatal: false),
                .sessionEnded(reason: "done"),
            ]
        )
        #expect(
            Support.events(dialect, .text(#"{"type":"hello","id":"s-1","n":7}"#))
                == [.sessionStarted(ids: ["session": "s-1", "number": "7"]), .sessionReady]
        )
        #expect(
            Support.events(dialect, .text(#"{"inputTranscription":{"text":"Hel"}}"#)) == [
                .transcript(role: "user", text: "Hel", isFinal: false)
            ]
        )
        #expect(
            Support.events(dialect, .text(#"{"error":{"message":"x","fatal":true}}"#)) == [.error(code: nil, message: "x", fatal: true)]
        )
    }

    @Test func declarationsSetTheSignals() throws {
        let adk = try CustomDialect.parse(yaml: Self.adkLike, path: "t.yaml", environment: [:])
        #expect(adk.turnEndSignal == .event)
        #expect(adk.readySignal == .event, "session.ready is declared")
        let bare = try Support.dialect("")
        #expect(bare.turnEndSignal == .audioGap)
        #expect(bare.readySignal == .onOpen)
        #expect(!bare.repliesWithAudio)
        #expect(bare.outputFormat == bare.inputFormat)
        let opensOnOpen = try Support.dialect("events: {session.ready: {match: {\"$.t\": r}}}\nsend: {start_audio_on: open}\n")
        #expect(opensOnOpen.readySignal == .onOpen)
        let speechEnded = try Support.dialect("events: {agent.speech_ended: {match: {\"$.t\": done}}}\n")
        #expect(speechEnded.turnEndSignal == .event)
    }

    @Test func audioWithoutDataOrWithBadDataInAMatchedFrame() throws {
        let dialect = try CustomDialect.parse(yaml: Self.adkLike, path: "t.yaml", environment: [:])
        let audioFrame = { (data: String) in #"{"content":{"parts":[{"inlineData":{"mimeType":"audio/pcm","data":\#(data)}}]}}"# }
        #expect(Support.events(dialect, .text(audioFrame(#""""#))) == [])
        #expect(Support.events(dialect, .text(audioFrame("null"))) == [])
        #expect(Support.normalized(Support.events(dialect, .text(audioFrame("5")))) == [.malformed(reason: "")])
        #expect(Support.normalized(Support.events(dialect, .text(audioFrame(#""*!""#)))) == [.malformed(reason: "")])
        #expect(
            Support.events(dialect, .text(audioFrame(#""AAEC""#))) == [
                .agentAudio(AgentAudioChunk(audio: [0, 1, 2], format: .pcm16(24_000)))
            ]
        )
    }

    @Test func rawBinaryAudioRule() throws {
        let dialect = try CustomDialect.parse(
            yaml: """
                dialect: bin
                audio:
                  input: {encoding: pcm16le, sample_rate: 16000, transport: binary}
                  output: {encoding: pcm16le, sample_rate: 16000, extract: [{when: {"@frame": binary}}]}
                events:
                  session.ready: {match: {"$.type": "ready"}}
                """,
            path: "t.yaml",
            environment: [:]
        )
        #expect(
            Support.events(dialect, .binary([1, 0, 2, 0])) == [.agentAudio(AgentAudioChunk(audio: [1, 0, 2, 0], format: .pcm16(16_000)))]
        )
        #expect(Support.events(dialect, .binary([])) == [])
        // Binary frames are audio, never JSON, when a raw binary rule exists.
        #expect(Support.events(dialect, .binary(Array(#"{"type":"ready"}"#.utf8))).count == 1)
        #expect(Support.events(dialect, .text(#"{"type":"ready"}"#)) == [.sessionReady])
    }

    @Test func unmatchedFramesAreUnknownOrMalformed() throws {
        let dialect = try Support.dialect("events: {session.ready: {match: {\"$.type\": ready}}}\n")
        #expect(Support.events(dialect, .text(#"{"type":"other"}"#)) == [.unknown(type: "other")])
        #expect(Support.events(dialect, .text(#"{"event":"media"}"#)) == [.unknown(type: "media")])
        #expect(Support.events(dialect, .text(#"{"type":7,"event":"e"}"#)) == [.unknown(type: "e")])
        #expect(Support.events(dialect, .text(#"{"x":1}"#)) == [.unknown(type: "{x}")])
        #expect(Support.events(dialect, .binary(Array(#"{"type":"b"}"#.utf8))) == [.unknown(type: "b")])
        for text in ["", "nope", "[1]", "3", #"{"type":"#] {
            #expect(Support.normalized(Support.events(dialect, .text(text))) == [.malformed(reason: "")], "\(text)")
        }
        let typed = try Support.dialect("message_type: \"$.kind\"\nevents: {session.ready: {match: {\"$.kind\": ready}}}\n")
        #expect(Support.events(typed, .text(#"{"kind":"k","type":"t"}"#)) == [.unknown(type: "k")])
        #expect(Support.normalized(Support.events(typed, .text(#"{"type":"t"}"#))) == [.malformed(reason: "")])
    }

    @Test func ignoredFramesYieldNothing() throws {
        let dialect = try Support.dialect("ignore: [{\"$.type\": {in: [citation, log]}}, {\"@raw\": PING}]\n")
        #expect(Support.events(dialect, .text(#"{"type":"log","x":1}"#)) == [])
        #expect(Support.events(dialect, .text("PING")) == [])
        #expect(Support.events(dialect, .text(#"{"type":"other"}"#)) == [.unknown(type: "other")])
    }

    @Test func timingConnectAndPreRequestAreExposed() throws {
        let dialect = try Support.dialect(
            """
            connect:
              url: "wss://voice.acme.test/agent/${var.session_id}?lang=en"
              pre_request:
                method: POST
                url: "https://api.acme.test/v1/sessions?k=${env.KEY}"
                headers: {Authorization: "Bearer ${env.KEY}"}
                json: {agent: "support", n: 2}
                capture: {session_id: "$.id", ws_url: "$.url"}
            send: {on_open: [{"sid": "${var.session_id}"}]}
            timing: {quiet_ms: 800, ready_timeout_ms: 10000, close_timeout_ms: 5000}
            """,
            environment: ["KEY": "k"]
        )
        #expect(dialect.quietMs == 800)
        #expect(dialect.readyTimeoutMs == 10_000)
        #expect(dialect.closeTimeoutMs == 5_000)
        #expect(dialect.urlTemplate == "wss://voice.acme.test/agent/${var.session_id}?lang=en")
        #expect(dialect.url == nil)
        let pre = try #require(dialect.preRequest)
        #expect(pre.method == "POST")
        #expect(pre.url == "https://api.acme.test/v1/sessions?k=k")
        #expect(pre.headers.map(\.1) == ["Bearer k"])
        #expect(DialectTestSupport.json(pre.jsonBody ?? "") == .object(["agent": .string("support"), "n": .number(2)]))
        #expect(pre.captures.map(\.name) == ["session_id", "ws_url"])
        var codec = dialect.makeCodec(parameters: [:])
        #expect(
            DialectTestSupport.json(codec.framesOnOpen().first) == .object(["sid": .string("")]),
            "nothing captured until the REST answer is adopted"
        )
    }
}
