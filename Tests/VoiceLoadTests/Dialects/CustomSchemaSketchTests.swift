import Testing

@testable import VoiceLoad

/// The schema sketch of docs/custom-dialects.md loads and behaves as described (with the one
/// variable it forgot to capture, `stream_sid`, added: unknown variables are load errors).
@Suite("Custom dialect: the schema sketch of docs/dialects.md")
struct CustomSchemaSketchTests {
    typealias Support = CustomDialectTestSupport

    static let sketch = """
        dialect: acme-voice-v2            # id used on the CLI: --dialect file:acme.yaml
        connect:
          url: "wss://voice.acme.test/agent/${var.session_id}?lang=en"
          headers: { Authorization: "Bearer ${env.ACME_TOKEN}" }
          subprotocols: []
          pre_request:                     # optional REST step, timed as rest_setup_ms
            method: POST
            url: "https://api.acme.test/v1/sessions"
            headers: { Authorization: "Bearer ${env.ACME_TOKEN}" }
            json: { agent: "support" }
            capture: { session_id: "$.id", ws_url: "$.url" }   # ws_url, if captured, overrides connect.url
        audio:
          input:
            encoding: pcm16le              # pcm16le | mulaw | alaw
            sample_rate: 16000
            frame_ms: 40
            transport: json                # json | binary
            json: {"type":"audio","payload":{"data":"${audio.b64}"}}
            pad_silence: true              # keep streaming silence after the utterance
          output:
            encoding: pcm16le
            sample_rate: 24000
            extract:                       # first matching rule wins per frame for audio bytes
              - when: { "@frame": binary }                         # raw bytes
              - when: { "$.type": "audio" }
                data: "$.payload.data"                             # base64 (b64url accepted)
        send:
          on_open:   [ {"type":"start","payload":{"agent_id":"${env.ACME_AGENT}"}} ]
          start_audio_on: ready            # normalized event name, or "open"
          interrupt: {"type":"interrupt"}  # sent at barge-in if scenario.interrupt_mode = client_signal
          commit: null                     # e.g. {"type":"input_audio_buffer.commit"} for manual turns
          keepalive: { every_ms: 5000, only_when_idle: true, json: {"type":"ping"} }
          close: {"type":"stop"}           # then wait for session.ended up to close_timeout_ms
          replies:                         # auto-replies, e.g. Twilio mark echo or tool answers
            - on: { "$.event": "mark" }
              at: playback_reaches_here     # immediately | playback_reaches_here | after_ms:<n>
              json: {"event":"mark","streamSid":"${var.stream_sid}","mark":{"name":"${msg.mark.name}"}}
        events:
          session.started:   { match: { "$.type": "started" } }
          session.ready:     { match: { "$.type": "ready" } }
          agent.speech_started: { match: { "$.type": "agent_start" } }       # omit → derived from audio
          agent.speech_ended:   { match: { "$.type": "agent_end" } }         # omit → derived (quiet_ms)
          user.speech_started:  { match: { "$.type": "vad", "$.state": "start" } }
          agent.interrupted:    { match: { any: [ { "$.type": "interrupted" }, { "$.interrupted": true } ] } }
          turn.complete:        { match: { "$.turn_complete": true } }
          transcript:
            - match: { "$.type": "transcript" }
              role: "$.payload.role"               # or a constant: { const: user }
              text: "$.payload.text"
              final: "$.payload.final"             # or { const: true }
              cumulative: false                    # true = replaces previous text (e.g. Smallest)
          tool.call:
            - match: { "$.type": "tool_call" }
              name: "$.payload.tool_name"
              args: "$.payload.args"               # optional
              status: "$.payload.status"           # optional (started/completed/…)
          error:
            - match: { "$.type": "error" }
              code: "$.payload.code"
              message: "$.payload.message"
              fatal: true
          session.ended:     { match: { "$.type": "ended" } }
        captures:
          - on: { "$.type": "started" }
            set: { session_id: "$.payload.session_id", stream_sid: "$.payload.stream_sid" }
        timing:
          quiet_ms: 500                  # gap that ends a derived agent turn
          ready_timeout_ms: 10000
          close_timeout_ms: 5000
        """

    static let environment = ["ACME_TOKEN": "tok", "ACME_AGENT": "agent-7"]

    @Test func theSketchLoads() throws {
        let dialect = try CustomDialect.parse(yaml: Self.sketch, path: "acme.yaml", environment: Self.environment)
        #expect(dialect.id == "acme-voice-v2")
        #expect(dialect.headers.map(\.0) == ["Authorization"])
        #expect(dialect.headers.map(\.1) == ["Bearer tok"])
        #expect(dialect.subprotocols == [])
        #expect(dialect.preRequest?.headers.map(\.1) == ["Bearer tok"])
        #expect(dialect.readySignal == .event)
        #expect(dialect.turnEndSignal == .event)
        #expect(dialect.keepAliveRule == CustomKeepAlive(everyMs: 5_000, onlyWhenIdle: true))
        #expect(dialect.keepAlive == KeepAlivePolicy(everyMs: 5_000, whileStreaming: false))
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == .pcm16(24_000))
    }

    @Test func theSketchDecodesAndReplies() throws {
        let dialect = try CustomDialect.parse(yaml: Self.sketch, path: "acme.yaml", environment: Self.environment)
        var codec = dialect.makeCodec(parameters: [:])
        #expect(
            DialectTestSupport.json(codec.framesOnOpen().first)
                == DialectTestSupport.json(#"{"type":"start","payload":{"agent_id":"agent-7"}}"#)
        )
        #expect(
            codec.receive(.text(#"{"type":"started","payload":{"session_id":"s1","stream_sid":"MZ9"}}"#)).events
                == [.sessionStarted(ids: [:])]
        )
        #expect(
            codec.receive(.binary([1, 0, 1, 0])).events == [.agentAudio(AgentAudioChunk(audio: [1, 0, 1, 0], format: .pcm16(24_000)))]
        )
        #expect(
            codec.receive(.text(#"{"type":"vad","state":"start","interrupted":true}"#)).events
                == [.userSpeechStarted, .agentInterrupted]
        )
        #expect(
            codec.receive(.text(#"{"type":"tool_call","payload":{"tool_name":"t","args":{"a":1}}}"#)).events
                == [.toolCall(name: "t", status: "")]
        )
        #expect(
            codec.receive(.text(#"{"type":"error","payload":{"code":"E1","message":"m"}}"#)).events
                == [.error(code: "E1", message: "m", fatal: true)]
        )
        let mark = codec.receive(.text(#"{"event":"mark","mark":{"name":"m1"}}"#))
        #expect(mark.events == [])
        #expect(mark.replies == [CodecReply(.text(#"{"event":"mark","streamSid":"MZ9","mark":{"name":"m1"}}"#), timing: .whenPlayedOut)])
        #expect(codec.frames(for: .commit) == [])
        #expect(codec.frames(for: .keepAlive) == [.text(#"{"type":"ping"}"#)])
    }
}
