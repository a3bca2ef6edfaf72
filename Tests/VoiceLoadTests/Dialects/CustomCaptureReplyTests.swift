import Testing

@testable import VoiceLoad

/// Captures and auto-replies (docs/custom-dialects.md), on a Twilio-like protocol.
@Suite("Custom dialect: captures and replies")
struct CustomCaptureReplyTests {
    typealias Support = CustomDialectTestSupport

    static let twilioLike = """
        dialect: twilio-like
        audio:
          input: {encoding: mulaw, sample_rate: 8000, frame_ms: 20, transport: json,
                  json: {"event": "media", "streamSid": "${var.stream_sid}", "media": {"payload": "${audio.b64}"}}}
          output:
            encoding: mulaw
            sample_rate: 8000
            extract: [{when: {"$.event": "media"}, data: "$.media.payload"}]
        send:
          interrupt: {"event": "clear", "streamSid": "${var.stream_sid}", "n": "${var.count:int}"}
          replies:
            - on: {"$.event": "mark"}
              at: playback_reaches_here
              json: {"event": "mark", "streamSid": "${var.stream_sid}", "mark": {"name": "${msg.mark.name}"}}
            - on: {"$.event": "ping"}
              at: immediately
              json: {"event": "pong", "echo": "${msg.data:json}", "first": "${msg.items[0].id}"}
        events:
          agent.interrupted: {match: {"$.event": "clear"}}
        captures:
          - on: {"$.event": "start"}
            set: {stream_sid: "$.start.streamSid", count: "$.start.count"}
        """

    @Test func capturedVariablesFeedLaterTemplates() throws {
        let dialect = try CustomDialect.parse(yaml: Self.twilioLike, path: "t.yaml", environment: [:])
        var codec = dialect.makeCodec(parameters: [:])
        #expect(
            DialectTestSupport.json(codec.frames(for: .interrupt).first)
                == .object(["event": .string("clear"), "streamSid": .string(""), "n": .null]),
            "nothing captured yet"
        )
        let start = codec.receive(.text(#"{"event":"start","start":{"streamSid":"MZ\"1","count":"5"}}"#))
        #expect(start == DecodedFrame(events: []), "a captured frame is recognized, not unknown")
        #expect(
            DialectTestSupport.json(codec.frames(for: .interrupt).first)
                == .object(["event": .string("clear"), "streamSid": .string("MZ\"1"), "n": .number(5)])
        )
        // The audio template now depends on a variable, so it is built per send.
        let prepared = dialect.prepareAudio([0xFF, 0x7F])
        #expect(prepared.sharedFrame == nil)
        #expect(
            DialectTestSupport.json(Support.wireFrame(codec.audioFrame(prepared)))
                == .object([
                    "event": .string("media"), "streamSid": .string("MZ\"1"), "media": .object(["payload": .string("/38=")]),
                ])
        )
        // A start without the fields keeps the earlier values.
        _ = codec.receive(.text(#"{"event":"start","start":{}}"#))
        #expect(DialectTestSupport.json(codec.frames(for: .interrupt).first)?.objectMember("streamSid") == .string("MZ\"1"))
    }

    @Test func variablesArePerConnection() throws {
        let dialect = try CustomDialect.parse(yaml: Self.twilioLike, path: "t.yaml", environment: [:])
        var first = dialect.makeCodec(parameters: [:])
        var second = dialect.makeCodec(parameters: [:])
        _ = first.receive(.text(#"{"event":"start","start":{"streamSid":"A"}}"#))
        _ = second.receive(.text(#"{"event":"start","start":{"streamSid":"B"}}"#))
        #expect(DialectTestSupport.json(first.frames(for: .interrupt).first)?.objectMember("streamSid") == .string("A"))
        #expect(DialectTestSupport.json(second.frames(for: .interrupt).first)?.objectMember("streamSid") == .string("B"))
    }

    @Test func repliesEchoTheTriggeringMessage() throws {
        let dialect = try CustomDialect.parse(yaml: Self.twilioLike, path: "t.yaml", environment: [:])
        var codec = dialect.makeCodec(parameters: [:])
        _ = codec.receive(.text(#"{"event":"start","start":{"streamSid":"MZ1"}}"#))
        let mark = codec.receive(.text(#"{"event":"mark","streamSid":"MZ1","mark":{"name":"turn-\"3\""}}"#))
        #expect(mark.events == [])
        #expect(mark.replies.count == 1)
        #expect(mark.replies.first?.timing == .whenPlayedOut)
        #expect(
            DialectTestSupport.json(mark.replies.first?.frame)
                == .object([
                    "event": .string("mark"), "streamSid": .string("MZ1"), "mark": .object(["name": .string("turn-\"3\"")]),
                ])
        )
        let ping = codec.receive(.text(#"{"event":"ping","data":{"t":[1,2]},"items":[{"id":9}]}"#))
        #expect(ping.replies.first?.timing == .immediately)
        #expect(
            DialectTestSupport.json(ping.replies.first?.frame)
                == .object([
                    "event": .string("pong"), "echo": .object(["t": .array([.number(1), .number(2)])]), "first": .string("9"),
                ])
        )
        let missing = codec.receive(.text(#"{"event":"ping"}"#))
        #expect(
            DialectTestSupport.json(missing.replies.first?.frame)
                == .object(["event": .string("pong"), "echo": .null, "first": .string("")])
        )
    }

    @Test func eventsAndRepliesComeFromOneFrame() throws {
        let dialect = try CustomDialect.parse(yaml: Self.twilioLike, path: "t.yaml", environment: [:])
        var codec = dialect.makeCodec(parameters: [:])
        let decoded = codec.receive(.text(#"{"event":"media","media":{"payload":"//8="}}"#))
        #expect(decoded.events == [.agentAudio(AgentAudioChunk(audio: [0xFF, 0xFF], format: .mulaw8k))])
        #expect(decoded.replies.isEmpty)
        #expect(codec.receive(.text(#"{"event":"clear"}"#)).events == [.agentInterrupted])
        #expect(codec.receive(.text(#"{"event":"other"}"#)).events == [.unknown(type: "other")])
    }
}

extension JSONValue {
    fileprivate func objectMember(_ name: String) -> JSONValue? {
        if case .object(let members) = self { return members[name] }
        return nil
    }
}
