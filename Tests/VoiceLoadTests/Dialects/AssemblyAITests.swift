import Testing
import WSClient
import WSCore

@testable import VoiceLoad

@Suite("AssemblyAI Universal-Streaming v3 dialect (docs/dialects.md)")
struct AssemblyAITests {
    let dialect = AssemblyAIClientDialect()

    static func turn(order: Int, ended: Bool, formatted: Bool = false, text: String = "hello there") -> String {
        #"{"type":"Turn","turn_order":\#(order),"turn_is_formatted":\#(formatted),"end_of_turn":\#(ended),"#
            + #""transcript":"\#(text)","end_of_turn_confidence":0.5,"words":[{"start":480,"end":900,"confidence":0.9,"#
            + #""text":"hello","word_is_final":true},{"start":900,"end":1360,"confidence":0.9,"text":"there","word_is_final":true}]}"#
    }

    @Test func description() {
        #expect(dialect.id == "assemblyai-v3")
        #expect(dialect.readySignal == .event)
        #expect(dialect.defaultFrameMs == 50)
        #expect(dialect.authentication == .header(name: "Authorization", prefix: ""))
        #expect(dialect.measures.contains(.endOfTurnMs))
    }

    @Test func clientMessages() {
        var codec = dialect.makeCodec(parameters: [:])
        #expect(codec.frames(for: .commit) == [.text(#"{"type":"ForceEndpoint"}"#)])
        #expect(codec.frames(for: .stop) == [.text(#"{"type":"Terminate"}"#)])
        #expect(codec.frames(for: .keepAlive) == [.text(#"{"type":"KeepAlive"}"#)])
        #expect(codec.frames(for: .audio([7])) == [.binary([7])])
    }

    @Test("a partial turn is an interim result; the first ended one is the end of turn; its formatted copy a final transcript")
    func turns() {
        var codec = dialect.makeCodec(parameters: [:])
        let span = (startS: 0.48, durationS: 1.36 - 0.48)
        let interim = SpeechResult(text: "hello there", isFinal: false, speechFinal: false, startS: span.startS, durationS: span.durationS)
        var final = interim
        final.isFinal = true
        #expect(
            codec.receive(.text(Self.turn(order: 0, ended: false))).events
                == [.speechResult(interim), .transcript(role: "user", text: "hello there", isFinal: false)]
        )
        #expect(
            codec.receive(.text(Self.turn(order: 0, ended: true))).events
                == [
                    .speechResult(final), .transcript(role: "user", text: "hello there", isFinal: true), .userSpeechStopped,
                    .userTurn(.endOfTurn),
                ]
        )
        #expect(
            codec.receive(.text(Self.turn(order: 0, ended: true, formatted: true, text: "Hello there."))).events
                == [.transcript(role: "user", text: "Hello there.", isFinal: true)]
        )
        #expect(codec.receive(.text(Self.turn(order: 1, ended: true))).events.last == .userTurn(.endOfTurn))
    }

    @Test func otherServerMessages() {
        var codec = dialect.makeCodec(parameters: [:])
        func events(_ text: String) -> [NormalizedEvent] { codec.receive(.text(text)).events }
        #expect(events(#"{"type":"Begin","id":"s1","expires_at":"2026-11-27T12:00:00Z"}"#) == [.sessionReady])
        #expect(events(#"{"type":"SpeechStarted","timestamp":480}"#) == [.userSpeechStarted])
        #expect(
            events(#"{"type":"Termination","audio_duration_seconds":2,"session_duration_seconds":3}"#) == [
                .sessionEnded(reason: "termination")
            ]
        )
        #expect(events(#"{"type":"Error","error_code":3005,"error":"boom"}"#) == [.error(code: "3005", message: "boom", fatal: true)])
        #expect(events(#"{"type":"Warning","warning_code":7,"warning":"slow"}"#) == [.warning(code: "7", message: "slow")])
        #expect(events(#"{"type":"Heartbeat","total_audio_received_ms":1,"total_duration_ms":1,"realtime_factor":1}"#) == [])
        #expect(events(#"{"type":"Novel"}"#) == [.unknown(type: "Novel")])
        #expect(DialectTestSupport.isSingleMalformed(events(#"{"type":"Turn","words":[{"start":5}]}"#)))
    }

    @Test func query() throws {
        let base = try WebSocketEndpoint(parsing: "wss://streaming.assemblyai.com/v3/ws")
        #expect(
            dialect.endpoint(for: base, parameters: [:]).query
                == "sample_rate=16000&encoding=pcm_s16le&speech_model=universal-streaming-english"
        )
        let tuned = dialect.endpoint(for: base, parameters: ["format_turns": .bool(true), "keyterms_prompt": .array([.string("vload")])])
        #expect(tuned.queryValue(named: "format_turns") == "true")
        #expect(tuned.queryValue(named: "keyterms_prompt") == #"["vload"]"#)
    }

    @Test("the simulator's side: Begin, SpeechStarted, partial and ended turns (formatted with format_turns), Termination")
    func server() throws {
        var server = AssemblyAIServerDialect().makeCodec(target: "/v3/ws?sample_rate=16000&format_turns=true")
        var client = dialect.makeCodec(parameters: [:])
        let outputs: [AgentOutput] = [
            .connectionOpened(sessionID: "s9"), .ready, .userSpeechStarted(audioMs: 480),
            .speechResult(SpeechResult(text: "hello there", isFinal: false, speechFinal: false, startS: 0.48, durationS: 0.4)),
            .speechResult(SpeechResult(text: "hello there", isFinal: true, speechFinal: true, startS: 0.48, durationS: 0.88)),
            .ended(transcript: []),
        ]
        let frames = outputs.flatMap { server.frames(for: $0) }
        #expect(frames.count == 6, "Begin, SpeechStarted, two turns, the formatted copy, Termination")
        let events = frames.flatMap { client.receive($0).events }
        #expect(events.first == .sessionReady)
        #expect(events.filter { $0 == .userTurn(.endOfTurn) }.count == 1)
        #expect(events.last == .sessionEnded(reason: "termination"))
        #expect(try server.receive(.text(#"{"type":"ForceEndpoint"}"#)) == [.commit])
        #expect(try server.receive(.text(#"{"type":"Terminate"}"#)) == [.stop])
        // A `configure` step's UpdateConfiguration: read back as the same settings, and
        // format_turns false stops the formatted copies from the next turn on.
        let settings: [String: JSONValue] = ["format_turns": .bool(false), "min_turn_silence": .number(400)]
        let update = try #require(client.frames(for: .configure(parameters: settings)).first)
        #expect(update == .text(#"{"format_turns":false,"min_turn_silence":400,"type":"UpdateConfiguration"}"#))
        #expect(try server.receive(update) == [.configure(parameters: settings)])
        let ended = SpeechResult(text: "again", isFinal: true, speechFinal: true, startS: 2, durationS: 0.5)
        #expect(server.frames(for: .speechResult(ended)).count == 1, "no formatted copy after format_turns false")
    }
}
