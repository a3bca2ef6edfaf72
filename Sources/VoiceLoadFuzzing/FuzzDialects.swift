import VoiceLoad

/// The custom dialects the fuzz targets decode with, written to use every feature of the
/// dialect language (docs/dialects.md): matchers with `any`, `in`, `prefix`, `regex`,
/// `truthy`, `exists`, `@raw` and `@frame`; wildcard, index and quoted paths; audio in base64,
/// base64url and raw binary; captures, replies (at once, on playback, after a delay) reading
/// the message; every template placeholder and suffix; a REST pre-step with captures.
enum FuzzDialects {
    /// The environment `${env.NAME}` reads in the fuzz dialects.
    static let environment = ["FUZZ_KEY": "k3y \"quoted\"", "DATAGRID_API_KEY": "dg-key", "DATAGRID_AGENT": "agent-1"]

    /// Every feature of a WebSocket-only dialect; binary frames are raw agent audio.
    static let featuresYAML = #"""
        dialect: fuzz-features
        description: every matcher, path, capture, reply and placeholder
        message_type: "$.type"
        connect:
          url: "wss://example.invalid/ws?session=${var.session_id}"
          headers: {X-Key: "${env.FUZZ_KEY}"}
        audio:
          input:
            encoding: pcm16le
            sample_rate: 16000
            frame_ms: 20
            transport: json
            json: {"type": "audio", "seq": "${seq:int}", "chunk": "${chunk:int}", "ts": "${ts_ms:int}", "data": "${audio.b64}"}
          output:
            encoding: mulaw
            sample_rate: 8000
            extract:
              - when: {"$.type": "audio"}
                data: "$.payload.chunks[*].data"
                turn_key: "$.payload.turn"
              - when: {"$.type": {prefix: "audio."}}
                data: "$['payload']['b64u']"
                encoding: base64url
              - when: {"@frame": binary}
        send:
          message_frames: text
          on_open:
            - {"type": "start", "session": "${session:json}", "id": "${uuid}", "pin": "${digits:6}", "at": "${now_iso}", "voice": "${session.voice}"}
          start_audio_on: ready
          interrupt: {"type": "interrupt", "sid": "${var.session_id}"}
          commit: "raw commit ${seq}"
          close: {"type": "stop", "n": "${var.count:int}", "all": "${var.meta:json}"}
          text: {"type": "text", "text": "${text}"}
          keepalive: {every_ms: 5000, only_when_idle: true, json: {"type": "ping"}}
          replies:
            - on: {"$.type": "ping"}
              json: {"type": "pong", "echo": "${msg.payload.nonce}", "raw": "${msg.payload:json}", "n": "${msg.payload.n:int}"}
            - on: {"$.type": "mark"}
              at: playback_reaches_here
              json: {"type": "mark", "name": "${msg.name}"}
            - on: {"$.type": "later"}
              at: after_ms:250
              json: "later ${msg.n:int}"
        events:
          session.started:
            match: {"$.type": "started"}
            ids: {session_id: "$.payload.session_id", call: ["$.payload.call", {const: none}]}
          session.ready:
            match: {any: [{"$.type": "ready"}, {"$.type": "started", "$.payload.ready": true}]}
          user.speech_started:
            match: {"$.type": "vad", "$.payload.state": {in: ["start", 1, true]}}
          user.speech_stopped:
            match: {"$.type": "vad", "$.payload.state": {in: ["stop", 0, false]}}
          agent.speech_started:
            match: {"$.type": "turn", "$.payload.phase": "start"}
            turn_key: "$.payload.turn"
          agent.speech_ended:
            match: {"$.type": "turn", "$.payload.phase": "end"}
            turn_key: ["$.payload.turn", {const: 0}]
          turn.complete:
            match: {"$.type": "turn", "$.payload.done": {truthy: true}}
          agent.interrupted:
            match: {"@raw": {regex: "\"interrupt(ed)?\""}}
          transcript:
            - match: {"$.type": "transcript", "$.payload.text": {exists: true}}
              role: ["$.payload.role", {const: unknown}]
              text: "$.payload.text"
              final: ["$.payload.final", true]
              cumulative: true
          tool.call:
            match: {"$.type": "tool", "$.payload.calls[0].name": {regex: "^[a-z_]+$"}}
            name: "$.payload.calls[0].name"
            status: "$.payload.calls[*].status"
            args: "$.payload.calls[0].args"
            id: "$.payload.calls[0].id"
          error:
            match: {"$.type": "error"}
            code: ["$.payload.code", "$.code"]
            message: "$.payload.message"
            fatal: "$.payload.fatal"
          session.ended:
            match: {"$.type": "ended"}
            reason: "$.payload.reason"
        ignore:
          - {"$.type": "log"}
          - {"$.payload": {exists: false}, "$.type": {prefix: "meta"}}
        captures:
          - on: {"$.type": "started"}
            set: {session_id: "$.payload.session_id", count: "$.payload.count", meta: "$.payload.meta"}
        timing:
          quiet_ms: 400
          ready_timeout_ms: 5000
          close_timeout_ms: 2000
        """#

    /// A dialect with a REST pre-step whose answer is captured, JSON read from binary frames
    /// too, raw binary user audio and no `message_type`.
    static let restYAML = #"""
        dialect: fuzz-rest
        connect:
          pre_request:
            url: "https://example.invalid/v1/session"
            json: {agent: "${env.FUZZ_KEY}", tags: [a, 1, true, null]}
            capture: {ws_url: "$.url", token: "$.auth.token", opening: "$.start"}
          url: "wss://example.invalid/ws/${var.token}"
        audio:
          input: {encoding: mulaw, sample_rate: 8000, transport: binary}
          output:
            encoding: pcm16le
            sample_rate: 24000
            extract:
              - when: {"$.event": "media", "$.media.track": {exists: true}}
                data: "$.media.payload"
        send:
          on_open:
            - "${var.opening:json}"
            - {"event": "hello", "token": "${var.token}", "n": "${var.token:int}"}
        events:
          turn.complete:
            match: {"$.event": "mark"}
            turn_key: "$.mark.name"
          agent.interrupted:
            match: {"$.event": "clear"}
          error:
            match: {"$.event": {in: [error, fault]}}
            message: ["$.message", "@raw"]
        """#

    static let features = load(featuresYAML, path: "fuzz-features.yaml")
    static let rest = load(restYAML, path: "fuzz-rest.yaml")
    static let all: [any ClientDialect] = [features, rest]

    private static func load(_ yaml: String, path: String) -> CustomDialect {
        do {
            return try CustomDialect.parse(yaml: yaml, path: path, environment: environment)
        } catch {
            preconditionFailure("the built-in fuzz dialect does not load: \(error)")
        }
    }
}
