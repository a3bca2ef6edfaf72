import Testing
import WSCore

@testable import VoiceLoad

@Suite("openai-realtime-webrtc, the simulator's side: the calls form, the events on oai-events")
struct OpenAIRealtimeWebRTCServerTests {
    private static let offer = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
    private static let key = [(name: "Authorization", value: "Bearer sk-test")]

    private static func form(_ request: OpenAIRealtimeCallRequest) -> [(name: String, value: String)] {
        request.requestHeaders.map { (name: $0.0, value: $0.1) }
    }

    private static func refusal(_ headers: [(name: String, value: String)], _ body: [UInt8]) -> OpenAIRealtimeCallRefusal? {
        do {
            _ = try OpenAIRealtimeCallForm(headers: headers, body: body)
            return nil
        } catch {
            return error
        }
    }

    @Test("registered for the simulator, over WebRTC with OpenAI's signalling, in the client's formats")
    func registry() throws {
        let server = try DialectRegistry.server("openai-realtime-webrtc")
        let client = try DialectRegistry.client("openai-realtime-webrtc")
        #expect(server.carriesOverWebRTC && server.webRTCSignalling == .openAIRealtimeCalls && server.sessionStart == .onClientStart)
        #expect(server.inputFormat == client.inputFormat && server.outputFormat == client.outputFormat && server.awaitsToolResults)
        #expect(WebRTCOfferSignalling.openAIRealtimeCalls.path == "/v1/realtime/calls")
        #expect(try DialectRegistry.server("pipecat-webrtc").webRTCSignalling == .smallWebRTC)
        // Both WebRTC dialects' sides take their audio from WebRTCClientDialect / WebRTCServerDialect:
        // one 20 ms frame of 48 kHz PCM16 is one Opus packet, and the caller's clip is heard decoded.
        let frame = [UInt8](repeating: 0, count: 1_920)
        for id in DialectRegistry.webRTCIDs {
            let (caller, agent) = (try DialectRegistry.client(id), try DialectRegistry.server(id))
            #expect(caller.defaultFrameMs == 20 && caller.requiredFrameMs == 20 && agent.inputFormat == .pcm16(48_000), "\(id)")
            #expect(caller.heardSamples(of: caller.prepareClip([frame, frame]))?.count == 1_920, "\(id)")
            #expect(agent.prepareClip([frame]).first?.sharedFrame?.kind == .binary && agent.prepareAudio(frame).byteCount == 1_920, "\(id)")
        }
    }

    @Test("the form vload's caller posts reads back: the SDP and the session")
    func readsTheCallersForm() throws {
        let request = OpenAIRealtimeCallRequest(model: "gpt-realtime", token: "sk-test")
        let form = try OpenAIRealtimeCallForm(headers: Self.form(request), body: request.body(offerSDP: Self.offer))
        #expect(form.offerSDP == Self.offer)
        #expect(form.session == ["type": "realtime", "model": "gpt-realtime"])
    }

    @Test("a form as another client writes it: a quoted boundary, a preamble, a filename, no session; or bare SDP")
    func readsOtherForms() throws {
        let body = "preamble\r\n--b1\r\nContent-Disposition: form-data; name=\"sdp\"; filename=\"offer.sdp\"\r\n\r\n\(Self.offer)\r\n--b1--\r\n"
        let headers = Self.key + [(name: "content-type", value: "multipart/form-data; boundary=\"b1\"")]
        let form = try OpenAIRealtimeCallForm(headers: headers, body: Array(body.utf8))
        #expect(form.offerSDP == Self.offer && form.session == nil)
        let bare = try OpenAIRealtimeCallForm(
            headers: Self.key + [(name: "Content-Type", value: "application/sdp")], body: Array(Self.offer.utf8))
        #expect(bare.offerSDP == Self.offer && bare.session == nil)
        #expect(OpenAIRealtimeCallForm.boundary(in: "multipart/form-data") == nil)
    }

    @Test("refused as the API refuses: 401 without a key, 400 naming what is wrong, OpenAI's error JSON")
    func refusals() throws {
        let request = OpenAIRealtimeCallRequest(model: "gpt-realtime", token: nil)
        let body = request.body(offerSDP: Self.offer)
        #expect(Self.refusal(Self.form(request), body) == .missingKey)
        #expect(Self.refusal(Self.form(request) + [(name: "Authorization", value: "Bearer  ")], body)?.status == 401)
        let keyed = Self.form(OpenAIRealtimeCallRequest(model: "gpt-realtime", token: "sk-test"))
        #expect(Self.refusal(keyed, request.body(offerSDP: ""))?.param == "sdp")
        let badSession = Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: request.sessionJSON, with: "[1]").utf8)
        #expect(Self.refusal(keyed, badSession)?.param == "session")
        #expect(Self.refusal(Self.key + [(name: "Content-Type", value: "application/json")], body)?.status == 400)
        #expect(Self.refusal(Self.key + [(name: "Content-Type", value: "multipart/form-data")], body)?.status == 400)
        // The caller reads the refusal's message into its one error line.
        let reply = OpenAIRealtimeCallRefusal.missingKey.reply
        #expect(reply.status == 401 && reply.contentType == "application/json")
        #expect(throws: OpenAIRealtimeCallError.status(401, OpenAIRealtimeCallRefusal.missingKey.message)) {
            try OpenAIRealtimeCallRequest.answerSDP(status: reply.status, body: reply.body)
        }
        let json = String(decoding: reply.body, as: UTF8.self)
        #expect(json.contains(#""type":"invalid_request_error""#) && json.contains(#""param":null"#) && json.contains(#""code":null"#))
    }

    @Test("the answer is the SDP with 201; a bad offer is OpenAI's 400 naming sdp; Pipecat's stays JSON")
    func answers() throws {
        let signalling = WebRTCOfferSignalling.openAIRealtimeCalls
        let answer = signalling.answer(sdp: Self.offer, sessionNumber: 3)
        #expect(answer.status == 201 && answer.contentType == "application/sdp")
        #expect(try OpenAIRealtimeCallRequest.answerSDP(status: answer.status, body: answer.body) == Self.offer)
        #expect(signalling.badOffer("no fingerprint").status == 400)
        let request = OpenAIRealtimeCallRequest(model: "gpt-realtime", token: "sk-test")
        #expect(try signalling.offerSDP(headers: Self.form(request), body: request.body(offerSDP: Self.offer)).get() == Self.offer)
        #expect(throws: WebRTCSignallingReply.self) { try signalling.offerSDP(headers: [], body: []).get() }
        let pipecat = WebRTCOfferSignalling.smallWebRTC
        let pipecatAnswer = pipecat.answer(sdp: Self.offer, sessionNumber: 3)
        #expect(try SmallWebRTCAnswer(status: pipecatAnswer.status, body: pipecatAnswer.body).pcID == "sim-pc-3")
        #expect(try pipecat.offerSDP(headers: [], body: SmallWebRTCOffer(sdp: Self.offer).body).get() == Self.offer)
        #expect(pipecat.offerSDP(headers: [], body: Array("{}".utf8)) == .failure(pipecat.badOffer(#"the body is not {"sdp": …, "type": "offer"}"#)))
    }

    @Test("the codec: session.update starts it, decoded audio in; no audio events, the reply announced around its media")
    func serverCodec() throws {
        var codec = try DialectRegistry.server("openai-realtime-webrtc").makeCodec(target: "/v1/realtime/calls")
        #expect(try codec.receive(.text(#"{"type":"session.update","session":{"type":"realtime"}}"#)) == [.start(parameters: ["type": "realtime"])])
        #expect(try codec.receive(.binary([1, 0])) == [.audio([1, 0])] && codec.receive(.binary([])) == [])
        #expect(try codec.receive(.text(#"{"type":"output_audio_buffer.clear"}"#)) == [])
        #expect(throws: DialectDecodingError.self) { try codec.receive(.text("not json")) }
        func types(_ output: AgentOutput) -> [String] {
            codec.frames(for: output).compactMap { frame -> String? in
                guard case .success(let object) = JSONFrame.object(in: frame) else { return nil }
                return object["type"]?.stringValue
            }
        }
        #expect(types(.connectionOpened(sessionID: "s")) == ["session.created"] && types(.ready) == ["session.updated"])
        #expect(types(.userSpeechStarted(audioMs: 0)) == ["input_audio_buffer.speech_started"])
        #expect(types(.userSpeechStopped(audioMs: 900)) == ["input_audio_buffer.speech_stopped", "input_audio_buffer.committed"])
        #expect(types(.agentTurnStarted(turnKey: "r1", latencyMs: 700)) == ["response.created", "output_audio_buffer.started", "response.done"])
        #expect(types(.audio([0, 0])).isEmpty && types(.turnComplete(turnKey: "r1")).isEmpty && types(.interrupted).isEmpty)
        #expect(types(.agentAudioDone(turnKey: "r1")) == ["output_audio_buffer.stopped"])
        #expect(types(.responseCancelled(turnKey: "r2")) == ["output_audio_buffer.cleared"])
        #expect(codec.audioFrame(PreparedAudio(sharedFrame: EncodedFrame(.binary([9])), byteCount: 1920)).kind == .binary)
    }

    @Test("vload's caller reads the simulator's events: ready, the turn ending with its audio, or on a cut")
    func clientReadsTheServer() throws {
        var server = try DialectRegistry.server("openai-realtime-webrtc").makeCodec(target: "/v1/realtime/calls")
        var client = OpenAIRealtimeWebRTCClientCodec(realtime: OpenAIRealtimeClientCodec(dialect: OpenAIRealtimeClientDialect(), parameters: [:]))
        func events(_ output: AgentOutput) -> [NormalizedEvent] {
            server.frames(for: output).flatMap { client.receive($0).events }
        }
        #expect(events(.ready) == [.sessionReady])
        let started = events(.agentTurnStarted(turnKey: "r1", latencyMs: 700))
        #expect(started.contains(.agentSpeechStarted(turnKey: "r1")) && !started.contains(.turnComplete(turnKey: "r1")))
        #expect(events(.agentAudioDone(turnKey: "r1")).contains(.turnComplete(turnKey: "r1")))
        _ = events(.agentTurnStarted(turnKey: "r2", latencyMs: 700))
        #expect(events(.responseCancelled(turnKey: "r2")).contains(.turnComplete(turnKey: "r2")))
    }
}
