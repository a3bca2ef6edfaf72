import Testing
import WSClient
import WSCore

@testable import VoiceLoad

@Suite("openai-realtime-webrtc: the calls POST, the events on oai-events, the turn's end with its audio")
struct OpenAIRealtimeWebRTCDialectTests {
    private let dialect = OpenAIRealtimeWebRTCClientDialect()

    private func codec(_ parameters: [String: JSONValue] = [:]) -> OpenAIRealtimeWebRTCClientCodec {
        guard let codec = dialect.makeCodec(parameters: parameters) as? OpenAIRealtimeWebRTCClientCodec else {
            preconditionFailure("the dialect makes its own codec")
        }
        return codec
    }

    @Test("registered for the client side, 20 ms Opus frames, ready and turn end on events")
    func registry() throws {
        #expect(DialectRegistry.webRTCIDs.contains("openai-realtime-webrtc"))
        let client = try DialectRegistry.client("openai-realtime-webrtc")
        #expect(client.id == "openai-realtime-webrtc" && client.readySignal == .event && client.turnEndSignal == .event)
        #expect(client.defaultFrameMs == 20 && client.requiredFrameMs == 20 && client.cancelsResponses)
        #expect(client.inputFormat == .pcm16(48_000) && client.outputFormat == .pcm16(48_000))
        #expect(client.measures.isSuperset(of: [.readyMs, .startedMs, .signallingMs, .iceMs, .firstAudioFromEndMs]))
        #expect(!client.measures.contains(.dnsMs) && !client.measures.contains(.firstAudioFromCommitMs))
        let manual = try client.configured(parameters: ["session": ["audio": ["input": ["turn_detection": .null]]]], url: "http://127.0.0.1:1")
        #expect(manual.measures.contains(.firstAudioFromCommitMs))
    }

    @Test("--url HOST posts to /v1/realtime/calls with the key, the model and the oai-events channel")
    func callTarget() throws {
        guard case .webRTC(let target)? = try dialect.connectionTarget(url: "http://127.0.0.1:8080", parameters: [:], token: "sk-test")
        else {
            Issue.record("a WebRTC target")
            return
        }
        #expect(target.offerEndpoint.description == "http://127.0.0.1:8080/v1/realtime/calls")
        #expect(target.channelLabel == "oai-events")
        #expect(target.headers.contains(HTTPHeaderField(name: "Authorization", value: "Bearer sk-test")))
        guard case .openAIRealtimeCalls(let request) = target.signalling else {
            Issue.record("OpenAI's signalling")
            return
        }
        #expect(request.sessionJSON == #"{"model":"gpt-realtime","type":"realtime"}"#)
        guard case .webRTC(let named)? = try dialect.connectionTarget(url: "http://127.0.0.1:1/calls", parameters: ["model": "gpt-realtime-mini"], token: nil),
            case .openAIRealtimeCalls(let namedRequest) = named.signalling
        else {
            Issue.record("a WebRTC target")
            return
        }
        #expect(named.offerEndpoint.description == "http://127.0.0.1:1/calls")
        #expect(namedRequest.sessionJSON.contains(#""model":"gpt-realtime-mini""#))
        #expect(!named.headers.contains { $0.name == "Authorization" })
        #expect(throws: InputError.self) { try dialect.connectionTarget(url: "wss://127.0.0.1:1", parameters: [:], token: nil) }
    }

    @Test("the offer is a multipart form: the SDP, then the session, each with its content type")
    func multipartBody() {
        let request = OpenAIRealtimeCallRequest(model: "gpt-realtime", token: "k")
        let boundary = OpenAIRealtimeCallRequest.boundary
        let expected =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"sdp\"\r\nContent-Type: application/sdp\r\n\r\nv=0\r\na=x\r\n\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"session\"\r\nContent-Type: application/json\r\n\r\n"
            + #"{"model":"gpt-realtime","type":"realtime"}"# + "\r\n--\(boundary)--\r\n"
        #expect(String(decoding: request.body(offerSDP: "v=0\r\na=x\r\n"), as: UTF8.self) == expected)
        #expect(request.requestHeaders.first?.1 == "multipart/form-data; boundary=\(boundary)")
        #expect(request.requestHeaders.contains { $0 == ("Accept", "application/sdp") })
    }

    @Test("the answer: a 201's SDP; a refusal's error message; a body that is no SDP")
    func answer() throws {
        #expect(try OpenAIRealtimeCallRequest.answerSDP(status: 201, body: Array("v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\n".utf8)).hasPrefix("v=0"))
        #expect(throws: OpenAIRealtimeCallError.status(401, "Incorrect API key provided")) {
            try OpenAIRealtimeCallRequest.answerSDP(status: 401, body: Array(#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#.utf8))
        }
        #expect(throws: OpenAIRealtimeCallError.status(502, "bad gateway")) {
            try OpenAIRealtimeCallRequest.answerSDP(status: 502, body: Array("bad gateway".utf8))
        }
        #expect(throws: OpenAIRealtimeCallError.notSDP(#"{"sdp":"v=0"}"#)) {
            try OpenAIRealtimeCallRequest.answerSDP(status: 200, body: Array(#"{"sdp":"v=0"}"#.utf8))
        }
    }

    @Test("session.update on open names no audio format; audio goes as media; other intents are events")
    func sendsEvents() throws {
        var codec = codec(["instructions": "Be brief."])
        let opening = codec.framesOnOpen()
        guard case .text(let text)? = opening.first, opening.count == 1,
            case .success(let object) = JSONFrame.object(in: .text(text)), case .object(let session)? = object["session"],
            case .object(let audio)? = session["audio"], case .object(let input)? = audio["input"]
        else {
            Issue.record("one session.update, got \(opening)")
            return
        }
        #expect(object["type"] == "session.update" && session["instructions"] == "Be brief.")
        #expect(input["format"] == nil && input["turn_detection"] != nil && input["transcription"] != nil)
        #expect(audio["output"] == nil, "the output had only its format")
        #expect(codec.frames(for: .audio([1, 2, 3, 4])).isEmpty)
        #expect(codec.frames(for: .interrupt) == [.text(#"{"type":"response.cancel"}"#)])
        let frame = codec.audioFrame(dialect.prepareAudio([UInt8](repeating: 0, count: 1_920)))
        #expect(frame.kind == .binary)
    }

    @Test("a spoken answer ends when its audio is out, not at response.done; a cancelled one at once")
    func turnEndsWithItsAudio() {
        var codec = codec()
        func events(_ json: String) -> [NormalizedEvent] { codec.receive(.text(json)).events }
        #expect(events(#"{"type":"response.created","event_id":"e1","response":{"id":"resp_1","status":"in_progress"}}"#) == [.agentSpeechStarted(turnKey: "resp_1")])
        #expect(events(#"{"type":"output_audio_buffer.started","event_id":"e2","response_id":"resp_1"}"#) == [])
        #expect(events(#"{"type":"response.done","event_id":"e3","response":{"id":"resp_1","status":"completed"}}"#) == [])
        #expect(events(#"{"type":"output_audio_buffer.stopped","event_id":"e4","response_id":"resp_1"}"#) == [.turnComplete(turnKey: "resp_1")])
        // Cut off: response.done says cancelled while the audio plays; the cleared buffer adds nothing.
        _ = events(#"{"type":"output_audio_buffer.started","event_id":"e5","response_id":"resp_2"}"#)
        #expect(events(#"{"type":"response.done","event_id":"e6","response":{"id":"resp_2","status":"cancelled"}}"#)
            == [.responseCancelled(turnKey: "resp_2"), .turnComplete(turnKey: "resp_2")])
        #expect(events(#"{"type":"output_audio_buffer.cleared","event_id":"e7","response_id":"resp_2"}"#) == [])
        // A response with no audio ends at response.done, as over the WebSocket.
        #expect(events(#"{"type":"response.done","event_id":"e8","response":{"id":"resp_3","status":"completed"}}"#) == [.turnComplete(turnKey: "resp_3")])
        #expect(events(#"{"type":"session.updated","event_id":"e9","session":{}}"#) == [.sessionReady])
        #expect(codec.receive(.binary([UInt8](repeating: 0, count: 1_920))).events.isEmpty, "digital silence is no agent audio")
    }
}
