import Foundation
import VoiceLoad
import WSCore

/// Valid inputs for every fuzz target, to mutate from: frames made by vload's own encoders
/// (the simulator's server codecs for the client decoders, the client codecs for the server
/// decoders), messages of the protocol documents that the simulator never sends, the fuzz
/// dialects, examples of every option's syntax, small WAV files, and the scenario and
/// dialect files the caller read from the repository.
package enum FuzzSeeds {
    /// The seed inputs of `target` (each starting with the target's byte). `scenarioFiles` and
    /// `dialectFiles` are the texts of YAML files to add to the scenario and dialect seeds.
    package static func inputs(for target: Fuzzing.Target, scenarioFiles: [String] = [], dialectFiles: [String] = []) -> [[UInt8]] {
        switch target {
        case .clientDecoder: return clientFrames().map { Fuzzing.input(.clientDecoder, payload: $0) }
        case .serverDecoder: return serverFrames().map { Fuzzing.input(.serverDecoder, payload: $0) }
        case .webSocketAssembler: return assemblerFrames().map { Fuzzing.input(.webSocketAssembler, payload: $0) }
        case .scenario: return ([scenarioYAML] + scenarioFiles).map { Fuzzing.input(.scenario, text: $0) }
        case .customDialect:
            return ([FuzzDialects.featuresYAML, FuzzDialects.restYAML] + dialectFiles).map { Fuzzing.input(.customDialect, text: $0) }
        case .threshold: return thresholds.map { Fuzzing.input(.threshold, text: $0) }
        case .stages: return stages.map { Fuzzing.input(.stages, text: $0) }
        case .duration: return durations.map { Fuzzing.input(.duration, text: $0) }
        case .arrivalRate: return arrivalRates.map { Fuzzing.input(.arrivalRate, text: $0) }
        case .restAnswer: return restBodies().map { Fuzzing.input(.restAnswer, payload: $0) }
        case .audioFile: return audioFiles().map { Fuzzing.input(.audioFile, payload: $0) }
        case .json: return jsonTexts().map { Fuzzing.input(.json, text: $0) }
        case .base64: return base64Texts().map { Fuzzing.input(.base64, text: $0) }
        case .rtpPacket: return rtpPackets().map { Fuzzing.input(.rtpPacket, payload: $0) }
        case .opusPacket: return opusPackets().map { Fuzzing.input(.opusPacket, payload: $0) }
        case .stunMessage: return stunMessages().map { Fuzzing.input(.stunMessage, payload: $0) }
        case .sdpAnswer: return sdpAnswers().map { Fuzzing.input(.sdpAnswer, text: $0) }
        }
    }

    /// The seed inputs of every target.
    package static func allInputs(scenarioFiles: [String] = [], dialectFiles: [String] = []) -> [[UInt8]] {
        Fuzzing.Target.allCases.flatMap { inputs(for: $0, scenarioFiles: scenarioFiles, dialectFiles: dialectFiles) }
    }

    /// How many leading bytes of a `target` input a mutation keeps: the target byte, and the
    /// codec or reader selector.
    package static func prefixCount(of target: Fuzzing.Target) -> Int {
        switch target {
        case .clientDecoder, .serverDecoder, .restAnswer: return 2
        default: return 1
        }
    }

    // MARK: - Fast paths

    /// JSON as the dialects' servers send it: audio deltas and appends, with null,
    /// negative and large integers, empty strings and spaces; nested values, escapes, fractions.
    static func jsonTexts() -> [String] {
        let audio = Data((0..<96).map { UInt8($0 * 7 % 256) }).base64EncodedString()
        return [
            #"{"type":"response.output_audio.delta","response_id":"resp_1","item_id":"item_1","output_index":0,"content_index":0,"delta":"\#(audio)"}"#,
            #"{"type":"input_audio_buffer.append","audio":"\#(audio)"}"#,
            #"{ "event" : "media", "sequenceNumber" : -42, "streamSid" : null, "n" : 9007199254740993 }"#,
            #"{"type":"Audio","data":"","count":0}"#,
            #"{"a":[1,-0.5,2.5e-3,1E+21,true,false,null,{"b":"\u00e9\ud83d\ude00\n\/\u001f"}],"A10":"x","a9":9223372036854775807}"#,
            #"{}"#,
        ]
    }

    /// Base64 of 0 to 6 bytes (each padding), of a 20 ms frame, and the empty text.
    static func base64Texts() -> [String] {
        (0...6).map { Data((0..<$0).map { UInt8(200 + $0) }).base64EncodedString() }
            + [Data((0..<640).map { UInt8($0 % 251) }).base64EncodedString()]
    }

    // MARK: - Decoder frames

    /// For each client dialect: everything its server sends in one session, and each of those
    /// frames alone, plus the documented messages of `extraServerFrames`.
    static func clientFrames() -> [[UInt8]] {
        var payloads: [[UInt8]] = []
        for (selector, dialect) in Fuzzing.clientDialects.enumerated() {
            var frames: [WireFrame] = extraServerFrames[dialect.id, default: []].map { WireFrame.text($0) }
            if let server = Fuzzing.serverDialects.first(where: { $0.id == dialect.id })?.dialect {
                var codec = server.makeCodec(target: Fuzzing.serverTarget)
                for output in Fuzzing.agentOutputs { frames += codec.frames(for: output) }
                if server.speaks { frames.append(Fuzzing.wireFrame(codec.audioFrame(server.prepareAudio(Array(0..<64))))) }
            }
            payloads.append(FuzzFrameSequence.encode(selector: selector, frames: frames))
            payloads += frames.map { FuzzFrameSequence.encode(selector: selector, frames: [$0]) }
        }
        return payloads
    }

    /// For each server dialect: everything its client sends in one session, and each frame alone.
    static func serverFrames() -> [[UInt8]] {
        var payloads: [[UInt8]] = []
        for (selector, server) in Fuzzing.serverDialects.enumerated() {
            guard let client = Fuzzing.clientDialects.first(where: { $0.id == server.id }) else { continue }
            var codec = Fuzzing.makeCodec(client, parameters: ["agent_id": .string("agent-1"), "voice": .string("sage")])
            var frames = codec.framesOnOpen()
            for intent in Fuzzing.sampleIntents where intent != .audio([1, 2, 3, 4]) { frames += codec.frames(for: intent) }
            frames.insert(Fuzzing.wireFrame(codec.audioFrame(client.prepareAudio(Array(0..<64)))), at: min(1, frames.count))
            payloads.append(FuzzFrameSequence.encode(selector: selector, frames: frames))
            payloads += frames.map { FuzzFrameSequence.encode(selector: selector, frames: [$0]) }
        }
        return payloads
    }

    /// Documented server messages the simulator does not send (docs/dialects.md), by dialect id,
    /// and the messages the fuzz dialects are written for.
    static let extraServerFrames: [String: [String]] = [
        "deepgram-agent": [
            #"{"type":"LatencyReport","total_latency":0.91,"tts_latency":0.2,"ttt_latency":0.71}"#,
            #"{"type":"FunctionCallRequest","function_name":"lookup","function_call_id":"fc_1","input":{"q":1}}"#,
            #"{"type":"FunctionCallRequest","functions":[{"id":"f1","name":"a","arguments":"{}","client_side":false}]}"#,
            #"{"type":"Warning","description":"slow","code":"W1"}"#, #"{"type":"AgentThinking","content":"…"}"#,
        ],
        "deepgram-flux": [
            #"{"type":"TurnInfo","request_id":"r","sequence_id":3,"event":"TurnResumed","turn_index":0,"audio_window_start":0.5,"audio_window_end":1.2,"transcript":"hi","words":[],"end_of_turn_confidence":0.2}"#,
            #"{"type":"Warning","request_id":"r","sequence_id":4,"code":"W1","description":"slow"}"#,
            #"{"type":"ConfigureFailure","request_id":"r","sequence_id":5,"code":"BAD","description":"no"}"#,
        ],
        "deepgram-stt": [
            #"{"type":"Results","channel":{"alternatives":[{"transcript":"hi there","confidence":0.9}]},"is_final":true,"speech_final":true,"start":1.5,"duration":0.75}"#,
            #"{"type":"SpeechStarted","channel":[0,1],"timestamp":0.4}"#,
        ],
        "openai-realtime": [
            #"{"type":"response.audio.delta","response_id":"r1","item_id":"i1","delta":"AAECAw=="}"#,
            #"{"type":"response.done","response":{"id":"r1","status":"failed","status_details":{"error":{"code":"server_error","message":"x"}}}}"#,
            #"{"type":"response.output_item.added","item":{"type":"function_call","call_id":"c1","name":"lookup"}}"#,
            #"{"type":"response.function_call_arguments.done","call_id":"c1","arguments":"{}"}"#,
            #"{"type":"conversation.item.input_audio_transcription.failed","error":{"type":"invalid","message":"m"}}"#,
        ],
        "adk-events": [
            #"{"content":{"parts":[{"functionCall":{"id":"f1","name":"lookup","args":{"q":1}}},{"text":"hi"}]},"partial":false,"turnComplete":true}"#,
            #"{"errorCode":"INTERNAL","errorMessage":"boom","interrupted":true}"#,
            #"{"inputTranscription":{"text":"hello","finished":true}}"#,
        ],
        "adk-seed": [
            #"{"type":"tool_use","tool_name":"lookup","tool_args":{"q":1}}"#, #"{"mime_type":"text/plain","data":"hi"}"#,
            #"{"interrupted":true,"turn_complete":true}"#,
        ],
        "smallest-atoms": [#"{"type":"error","code":401,"message":"unauthorized"}"#, #"{"type":"session.closed","reason":"x"}"#],
        "twilio-media-streams": [#"{"event":"mark","streamSid":"MZ1","mark":{"name":"turn-1"}}"#, #"{"event":"clear","streamSid":"MZ1"}"#],
        "telnyx-media-streaming": [
            #"{"event":"media","media":{"payload":"/w=="}}"#, #"{"event":"mark","mark":{"name":"t1"}}"#, #"{"event":"clear"}"#,
        ],
        "plivo-audio-streaming": [
            #"{"event":"playAudio","media":{"contentType":"audio/x-mulaw","sampleRate":8000,"payload":"/w=="},"streamId":"s1"}"#,
            #"{"event":"checkpoint","streamId":"s1","name":"t1"}"#, #"{"event":"clearAudio","streamId":"s1"}"#,
        ],
        "exotel-voicebot": [#"{"event":"media","stream_sid":"s1","media":{"payload":"AAA="}}"#, #"{"event":"clear","stream_sid":"s1"}"#],
        "vonage-websocket": [#"{"action":"clear"}"#, #"{"action":"notify","payload":{"turn":"t1"}}"#],
        "datagrid": [
            #"{"type":"transcript","payload":{"speaker":"agent","transcript":"hi","final":false}}"#, #"{"type":"citation","payload":{}}"#,
        ],
        "fuzz-features": [
            #"{"type":"started","payload":{"session_id":"s1","count":2,"meta":{"a":1},"call":"c1","ready":true}}"#,
            #"{"type":"ready","payload":{}}"#, #"{"type":"vad","payload":{"state":"start"}}"#, #"{"type":"vad","payload":{"state":0}}"#,
            #"{"type":"turn","payload":{"phase":"start","turn":"t1"}}"#,
            #"{"type":"audio","payload":{"chunks":[{"data":"AAECAw=="},{"data":"BAUG"}],"turn":"t1"}}"#,
            #"{"type":"audio.delta","payload":{"b64u":"AAECAw-_"}}"#,
            #"{"type":"transcript","payload":{"text":"hi","role":"user","final":false}}"#,
            #"{"type":"tool","payload":{"calls":[{"name":"lookup","status":"done","args":{"q":1},"id":"c1"}]}}"#,
            #"{"type":"turn","payload":{"phase":"end","turn":"t1","done":1}}"#, #"{"type":"interrupted","payload":{}}"#,
            #"{"type":"ping","payload":{"nonce":"n\"1","n":5}}"#, #"{"type":"mark","name":"m1","payload":{}}"#,
            #"{"type":"later","n":"7","payload":{}}"#, #"{"type":"error","payload":{"code":500,"message":"boom","fatal":false}}"#,
            #"{"type":"log","payload":{}}"#, #"{"type":"meta.info"}"#, #"{"type":"ended","payload":{"reason":"bye"}}"#,
        ],
        "fuzz-rest": [
            #"{"event":"media","media":{"payload":"AAECAw==","track":"outbound"}}"#, #"{"event":"mark","mark":{"name":"m1"}}"#,
            #"{"event":"clear"}"#, #"{"event":"fault","message":"x"}"#,
        ],
    ]

    /// Fragmented, masked, control and reserved frames.
    static func assemblerFrames() -> [[UInt8]] {
        let text = Array(#"{"type":"ready"}"#.utf8)
        return [
            Fuzzing.webSocketBytes([(0x81, text)]),
            Fuzzing.webSocketBytes([(0x02, Array(0..<100)), (0x00, Array(100..<200)), (0x80, Array(0..<50))]),
            Fuzzing.webSocketBytes([(0x01, Array("hel".utf8)), (0x89, Array("ping".utf8)), (0x80, Array("lo".utf8))]),
            Fuzzing.webSocketBytes([(0x88, [0x03, 0xE8] + Array("bye".utf8))]),
            Fuzzing.webSocketBytes([(0x82, Array(repeating: 7, count: 300)), (0x8A, []), (0x88, [])]),
            [0x81, 0x85, 1, 2, 3, 4] + Array("hello".utf8),
        ]
    }

    // MARK: - REST bodies

    /// The simulator's answer (with the client's request as its `start_message`), the fuzz REST
    /// dialect's answer, and the client's request body.
    static func restBodies() -> [[UInt8]] {
        let request = DatagridClientDialect().restSetupRequest(parameters: Fuzzing.trickyObject, token: "key")?.body ?? []
        let answer = DatagridServerDialect().restSessionResponse(requestBody: request, webSocketURL: "ws://127.0.0.1:9/ws") ?? []
        let custom = Array(Fuzzing.sampleRESTAnswer.utf8)
        return [[0] + answer, [1] + custom, [2] + request, [0] + custom, [1] + answer]
    }

    // MARK: - Parser texts

    /// A scenario that uses every step kind and every option.
    static let scenarioYAML = """
        name: every-step
        description: every step and option
        dialect: datagrid
        url: ws://127.0.0.1:9/ws
        frame_ms: 20
        quiet_ms: 400
        jitter_buffer_ms: 60
        seed: 42
        session: {agent_id: a1, voice_config: {voice: sage, speed: 1.5}, tags: [a, 1, true, null]}
        simulator: {reply_ms: 8000, no_greeting: true}
        thresholds:
          - first_audio_from_end_ms.p95 < 900
          - first_audio_from_end_ms{label=ask}.p50 <= 0.8s
          - error_rate < 1%
          - turns >= 2
        stages:
          - {duration: 10s, target: 5}
          - {duration: 20s, target: 5}
        steps:
          - connect: {}
            timeout_ms: 5000
          - wait: ready
          - wait: greeting
            timeout_ms: 20000
            on_timeout: continue
          - say: audio/hello.wav
            label: ask
            speech_start_ms: 100
            speech_end_ms: 1500
          - wait: quiet
            ms: 700
          - wait: transcript
            role: agent
          - wait: tool_call
            name: lookup
          - tool_reply: {lookup: {temperature_c: 18}, "*": done}
            delay_ms: 200
          - wait: event
            event: turn.complete
          - think: [800, 1500]
          - silence: 300
          - repeat: 2
            steps:
              - say: audio/arrival.wav
              - barge_in: audio/barge-in.wav
                after_heard_ms: 1200
                int_timeout_ms: 2000
              - barge_in: command
                after_heard_ms: 500
              - wait: agent_turn_end
          - wait: agent_audio
          - hangup
        """

    static let thresholds = [
        "first_audio_from_end_ms.p95 < 900", "first_audio_from_end_ms{label=arrival}.p50 <= 800ms", "error_rate < 1%",
        "missed_interruption_rate == 0", "turns >= 20", "int_ack_ms.max < 1.5s", "first_audio_from_end_ms.p99.9 != 2",
        "connect_ms.rate > 0.5/s", "sessions > 3", "timeout_rate <= 5",
    ]
    static let stages = ["30s:50,1m:50,30s:0", "30s:10/s,2m:10/s", "1m:600/m, 10s:0/s", "500ms:1", "1h:100000"]
    static let durations = ["500ms", "30s", "2m", "1h", "1.5", " 10s ", "0"]
    static let arrivalRates = ["5", "5/s", "300/m", "2.5", "3600/h", "10000"]

    // MARK: - Audio files

    /// Small WAV files: PCM16 mono 16 kHz with a tone in the middle, 8-bit stereo, 32-bit
    /// float at 8 kHz, and a header-only file.
    static func audioFiles() -> [[UInt8]] {
        let tone16 = (0..<4_800).map { index -> Int16 in
            (1_200..<3_600).contains(index) ? Int16(12_000 * sin(Double(index) * 0.2)) : 0
        }
        let pcm16 = tone16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        let pcm8 = tone16.prefix(1_600).flatMap { sample -> [UInt8] in
            let byte = UInt8(truncatingIfNeeded: Int(sample) / 256 + 128)
            return [byte, byte]
        }
        let float32 = tone16.prefix(2_400).flatMap { sample -> [UInt8] in
            withUnsafeBytes(of: (Float(sample) / 32_768).bitPattern.littleEndian, Array.init)
        }
        return [
            wav(format: 1, channels: 1, rateHz: 16_000, bitsPerSample: 16, data: pcm16),
            wav(format: 1, channels: 2, rateHz: 16_000, bitsPerSample: 8, data: pcm8),
            wav(format: 3, channels: 1, rateHz: 8_000, bitsPerSample: 32, data: float32),
            wav(format: 1, channels: 1, rateHz: 44_100, bitsPerSample: 16, data: []),
        ]
    }

    /// A canonical RIFF/WAVE file.
    static func wav(format: UInt16, channels: UInt16, rateHz: UInt32, bitsPerSample: UInt16, data: [UInt8]) -> [UInt8] {
        func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        func le16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let blockAlign = channels * bitsPerSample / 8
        let fmt = le16(format) + le16(channels) + le32(rateHz) + le32(rateHz * UInt32(blockAlign)) + le16(blockAlign) + le16(bitsPerSample)
        let body =
            Array("WAVE".utf8) + Array("fmt ".utf8) + le32(UInt32(fmt.count)) + fmt + Array("data".utf8) + le32(UInt32(data.count)) + data
        return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
    }
}
