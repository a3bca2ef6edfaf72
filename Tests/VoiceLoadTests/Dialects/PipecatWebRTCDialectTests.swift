import Testing
import WSCore
import WebRTC

@testable import VoiceLoad

@Suite("pipecat-webrtc: the dialect, its codec and its connect failures")
struct PipecatWebRTCDialectTests {
    private let dialect = PipecatWebRTCClientDialect()

    @Test("registered with a WebRTC server side, 20 ms frames, ready on an event, turns end by a quiet gap")
    func registry() throws {
        #expect(DialectRegistry.webRTCIDs.contains("pipecat-webrtc"))
        #expect(!DialectRegistry.ids.contains("pipecat-webrtc") && DialectRegistry.clientIDs.contains("pipecat-webrtc"))
        let client = try DialectRegistry.client("pipecat-webrtc")
        #expect(client.id == "pipecat-webrtc" && client.readySignal == .event && client.turnEndSignal == .audioGap)
        #expect(client.defaultFrameMs == 20 && client.requiredFrameMs == 20)
        #expect(client.inputFormat == .pcm16(48_000) && client.outputFormat == .pcm16(48_000))
        #expect(client.measures.contains(.readyMs) && client.measures.contains(.firstAudioFromEndMs))
        #expect(!client.measures.contains(.dnsMs) && !client.measures.contains(.upgradeMs))
        // The simulator's side comes over WebRTC, in the client's formats.
        let server = try DialectRegistry.server("pipecat-webrtc")
        #expect(server.carriesOverWebRTC && server.sessionStart == .onClientStart)
        #expect(server.inputFormat == client.inputFormat && server.outputFormat == client.outputFormat)
    }

    @Test("the simulator's codec: client-ready starts the session, RTVI out for ready, speaking and interruption")
    func serverCodec() throws {
        var codec = try DialectRegistry.server("pipecat-webrtc").makeCodec(target: "/api/offer")
        #expect(try codec.receive(.text(PipecatRTVI.clientReady(id: "c"))) == [.start(parameters: [:])])
        #expect(try codec.receive(.text(#"{"label":"rtvi-ai","type":"client-message"}"#)) == [])
        #expect(try codec.receive(.binary([1, 0])) == [.audio([1, 0])])
        #expect(throws: DialectDecodingError.self) { try codec.receive(.text("not json")) }
        func type(_ output: AgentOutput) -> [String] {
            codec.frames(for: output).compactMap { frame -> String? in
                guard case .success(let object) = JSONFrame.object(in: frame) else { return nil }
                return object["type"]?.stringValue
            }
        }
        #expect(type(.ready) == ["bot-ready"] && type(.interrupted) == ["bot-interrupted"])
        #expect(type(.userSpeechStarted(audioMs: 0)) == ["user-started-speaking"] && type(.userSpeechStopped(audioMs: 1)) == ["user-stopped-speaking"])
        #expect(type(.agentTurnStarted(turnKey: "t", latencyMs: 0)) == ["bot-started-speaking"] && type(.agentAudioDone(turnKey: "t")) == ["bot-stopped-speaking"])
        #expect(type(.audio([0, 0])).isEmpty && type(.connectionOpened(sessionID: "s")).isEmpty)
        // The client reads the simulator's bot-ready as the session's ready.
        var client = PipecatWebRTCClientCodec()
        #expect(client.receive(codec.frames(for: .ready)[0]).events == [.sessionReady])
    }

    @Test("a clip's frames are one Opus stream: the packets OpusClip encodes from the same audio")
    func clipIsOneOpusStream() throws {
        let path = repositoryRoot() + "/scenarios/audio/hello.wav"
        let utterance = try PreparedUtterance.prepare(path: path, format: dialect.inputFormat, frameMs: 20)
        let frames = FrameSet(utterance: utterance, dialect: dialect).frames
        let clip = try OpusClip.encode(try WAVReader.read(path: path))
        #expect(frames.count == utterance.frames.count)
        let packets = frames.map { Array($0.sharedFrame?.payload.readableBytesView ?? []) }
        #expect(packets.allSatisfy { !$0.isEmpty && $0.count <= 1_275 })
        let common = min(packets.count, clip.frames.count)
        #expect(common > 0 && Array(packets.prefix(common)) == Array(clip.frames.map(\.payload).prefix(common)))
        #expect(frames.allSatisfy { $0.sharedFrame?.kind == .binary && $0.byteCount == 1_920 })
    }

    @Test("the caller's silence is aiortc's 3-byte silent frame, which decodes to exact zeros and an agent settles on; frames are encoded")
    func silence() throws {
        let silence = dialect.silenceFrame(frameMs: 20)
        let packet = Array(try #require(silence.sharedFrame).payload.readableBytesView)
        #expect(packet == [0xF8, 0xFF, 0xFE] && silence.byteCount == 1_920)
        // An agent hearing a clip, then the quiet, then the clip again: its decoder answers all
        // but the first four frames of each quiet run without libopus (OpusSettledSilenceTests
        // holds the samples that follow to a decoder that decodes every packet).
        let path = repositoryRoot() + "/scenarios/audio/hello.wav"
        let utterance = try PreparedUtterance.prepare(path: path, format: dialect.inputFormat, frameMs: 20)
        let clip = FrameSet(utterance: utterance, dialect: dialect).frames.map { Array($0.sharedFrame?.payload.readableBytesView ?? []) }
        let quiet = [[UInt8]](repeating: packet, count: 50)
        var decoder = try OpusPacketDecoder()
        var silentFrames = 0
        for frame in quiet + clip + quiet where try decoder.decode(frame).allSatisfy({ $0 == 0 }) { silentFrames += 1 }
        #expect(silentFrames >= 98 && decoder.settledSilencePackets >= 2 * (50 - OpusPacketDecoder.settledSilenceRepeats) - 1)
        // A frame given to prepareAudio is encoded, zeros too: libopus's default bitrate makes
        // them a hybrid packet, not the silent frame.
        let tone = dialect.prepareAudio((0..<1_920).map { UInt8(truncatingIfNeeded: $0 * 37) })
        #expect(tone.sharedFrame.map { Array($0.payload.readableBytesView) } != [0xF8, 0xFF, 0xFE])
        let zeros = dialect.prepareAudio([UInt8](repeating: 0, count: 1_920))
        #expect(zeros.sharedFrame.map { Array($0.payload.readableBytesView) } != [0xF8, 0xFF, 0xFE] && zeros.byteCount == 1_920)
    }

    @Test("RTVI on the data channel: bot-ready is ready, bot-interrupted the barge-in's acknowledgement")
    func rtvi() {
        var codec = PipecatWebRTCClientCodec()
        func events(_ json: String) -> [NormalizedEvent] { codec.receive(.text(json)).events }
        #expect(events(#"{"label":"rtvi-ai","type":"bot-ready","id":"1","data":{"version":"2.2.0"}}"#) == [.sessionReady])
        #expect(events(#"{"label":"rtvi-ai","type":"bot-interrupted"}"#) == [.agentInterrupted])
        #expect(events(#"{"label":"rtvi-ai","type":"user-started-speaking"}"#) == [.userSpeechStarted])
        #expect(events(#"{"label":"rtvi-ai","type":"user-stopped-speaking"}"#) == [.userSpeechStopped])
        for type in ["bot-started-speaking", "bot-stopped-speaking", "bot-tts-started", "bot-tts-stopped"] {
            #expect(events(#"{"label":"rtvi-ai","type":"\#(type)"}"#) == [], "\(type)")
        }
        #expect(events(#"{"label":"rtvi-ai","type":"server-message"}"#) == [.unknown(type: "message server-message")])
        guard case .malformed? = events("not json").first else {
            Issue.record("text that is not JSON is malformed")
            return
        }
    }

    @Test("client-ready when the channel opens; the agent's decoded audio is 48 kHz PCM16; nothing else to send")
    func codecFrames() throws {
        var codec = PipecatWebRTCClientCodec()
        let opening = codec.framesOnOpen()
        guard case .text(let text)? = opening.first, opening.count == 1 else {
            Issue.record("one text frame on open, got \(opening)")
            return
        }
        #expect(text == PipecatRTVI.clientReady(id: "vload-client-ready"))
        #expect(codec.receive(.binary([UInt8](repeating: 0, count: 1_920))).events.isEmpty, "digital silence is no agent audio")
        var quiet = [UInt8](repeating: 0, count: 1_920)
        quiet[1] = 1  // one sample of 256: audio, however quiet
        let decoded = codec.receive(.binary(quiet)).events
        guard case .agentAudio(let chunk)? = decoded.first else {
            Issue.record("agent audio, got \(decoded)")
            return
        }
        #expect(chunk.durationUs == 20_000 && chunk.byteCount == 1_920)
        #expect(codec.receive(.binary([])).events.isEmpty)
        #expect(codec.frames(for: .stop).isEmpty && codec.frames(for: .interrupt).isEmpty)
    }

    @Test("--url http://HOST:PORT posts the offer to /api/offer; a path is kept; a ws:// URL is refused")
    func offerURL() throws {
        guard case .webRTC(let target)? = try dialect.connectionTarget(url: "http://127.0.0.1:7860", parameters: [:], token: nil) else {
            Issue.record("a WebRTC target")
            return
        }
        #expect(target.offerEndpoint.description == "http://127.0.0.1:7860/api/offer")
        #expect(target.localHost == "127.0.0.1")
        guard case .webRTC(let custom)? = try dialect.connectionTarget(url: "http://127.0.0.1:1/bot/offer", parameters: [:], token: nil)
        else {
            Issue.record("a WebRTC target")
            return
        }
        #expect(custom.offerEndpoint.description == "http://127.0.0.1:1/bot/offer")
        #expect(throws: InputError.self) { try dialect.connectionTarget(url: "ws://127.0.0.1:1", parameters: [:], token: nil) }
    }

    @Test("each connect failure is one error class: the offer refused or unusable, ICE, DTLS, data channel, the POST's own, a timeout")
    func connectFailures() {
        func name(_ error: WebRTCConnectError) -> String { VirtualClient.failure(of: error, timeoutMs: 10_000).errorClass.name }
        #expect(name(.signallingRejected(status: 503, reason: "SmallWebRTC offer answered HTTP 503: oops")) == "signalling_rejected_503")
        #expect(name(.signalling("SmallWebRTC answer has type \"offer\", not \"answer\"")) == "signalling_failed")
        #expect(name(.transport(.ice(.allChecksFailed(remotes: 1)))) == "ice_failed")
        #expect(name(.transport(.sctp("the SDP answer has no data channel section"))) == "data_channel_failed")
        #expect(name(.http(.connectionRefused("refused"))) == "connect_refused")
        #expect(name(.http(.timedOut)) == "timeout_connect")
        #expect(name(.timedOut(reached: "offer answered, ICE and DTLS not connected")) == "timeout_connect")
        for errorClass in [ErrorClass.signallingFailed, .signallingRejected(status: 401), .iceFailed, .dtlsFailed, .dataChannelFailed] {
            #expect(ErrorClass(name: errorClass.name) == errorClass)
        }
        #expect(ErrorClass.dtlsFailed.category == .tls && ErrorClass.iceFailed.category == .connect)
        #expect(ErrorClass.signallingRejected(status: 503).category == .upgrade)
        // A refused key is not worth another offer; an unavailable agent is.
        #expect(!ReconnectPolicy.retries(.signallingRejected(status: 401)) && ReconnectPolicy.retries(.signallingRejected(status: 503)))
        #expect(SmallWebRTCSignallingError.status(503, "x").httpStatus == 503 && OpenAIRealtimeCallError.status(401, "x").httpStatus == 401)
        #expect(SmallWebRTCSignallingError.malformed("x").httpStatus == nil && OpenAIRealtimeCallError.notSDP("x").httpStatus == nil)
    }
}
