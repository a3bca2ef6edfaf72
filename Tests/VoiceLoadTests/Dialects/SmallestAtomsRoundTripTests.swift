import Testing

@testable import VoiceLoad

@Suite("Smallest Atoms round trips between the client and the server side")
struct SmallestAtomsRoundTripTests {
    @Test(arguments: [false, true])
    func clientEncodeThenServerDecodeGivesTheSameIntents(asBinary: Bool) throws {
        var client = SmallestAtomsClientDialect(sendsJSONAsBinary: asBinary).makeCodec(parameters: [:])
        var server = SmallestAtomsServerDialect().makeCodec(target: "/atoms/v1/agent/connect")
        let intents: [ClientIntent] = [
            .audio(DialectTestSupport.bytes(count: 3_840, seed: 2)), .commit,
            .text("Hello \"agent\" / \\ \n 🎙"), .stop,
        ]
        for intent in intents {
            let frames = client.frames(for: intent)
            #expect(frames.count == 1, "\(intent)")
            #expect(try frames.flatMap { try server.receive($0) } == [intent])
        }
    }

    @Test func preparedAudioReachesTheServerAsTheSameBytes() throws {
        let bytes = DialectTestSupport.bytes(count: 960, seed: 4)
        let dialect = SmallestAtomsClientDialect()
        var client = dialect.makeCodec(parameters: [:])
        var server = SmallestAtomsServerDialect().makeCodec(target: "/")
        let frame = try #require(EncodedFrameTestSupport.wireFrame(client.audioFrame(dialect.prepareAudio(bytes))))
        #expect(try server.receive(frame) == [.audio(bytes)])
    }

    /// Every output the simulator emits for a Smallest session, in a session's order.
    @Test(arguments: [16_000, 24_000])
    func serverEncodeThenClientDecodeGivesTheExpectedEvents(rateHz: Int) {
        var server = SmallestAtomsServerDialect(sampleRateHz: rateHz).makeCodec(target: "/")
        var client = SmallestAtomsClientDialect(sampleRateHz: rateHz).makeCodec(parameters: [:])
        let audio = DialectTestSupport.bytes(count: 1_920, seed: 8)
        let cases: [(AgentOutput, [NormalizedEvent])] = [
            (.connectionOpened(sessionID: "sim-3"), []),
            (.ready, [.sessionStarted(ids: ["session_id": "sim-3", "call_id": "CALL-sim-3"]), .sessionReady]),
            (.userSpeechStarted(audioMs: 200), []),
            (.userSpeechStopped(audioMs: 1_400), []),
            (.agentTurnStarted(turnKey: "resp_1", latencyMs: 650), [.agentSpeechStarted(turnKey: nil)]),
            (.audio(audio), [.agentAudio(AgentAudioChunk(audio: audio, format: .pcm16(rateHz)))]),
            (.agentAudioDone(turnKey: "resp_1"), []),
            (.turnComplete(turnKey: "resp_1"), [.agentSpeechEnded(turnKey: nil), .turnComplete(turnKey: nil)]),
            (.interrupted, [.agentInterrupted]),
            (.responseCancelled(turnKey: "resp_2"), []),
            (
                .transcript(TranscriptLine(role: "user", text: "Wie geht's? \"ok\"", isFinal: false)),
                [.transcript(role: "user", text: "Wie geht's? \"ok\"", isFinal: false)]
            ),
            (.transcript(TranscriptLine(role: "assistant", text: "Gut.")), [.transcript(role: "assistant", text: "Gut.", isFinal: true)]),
            (.transcript(TranscriptLine(role: "user", text: "this is it")), [.transcript(role: "user", text: "this is it", isFinal: true)]),
            // Tools run on the server and have no event on this socket.
            (.toolCall(name: "lookup", status: "started", id: "call_sim-1_1", arguments: "{}"), []),
            (
                .error(code: nil, message: "quota exceeded\nretry later"),
                [.error(code: "internal_error", message: "quota exceeded\nretry later", fatal: false)]
            ),
            (
                .error(code: "simulated_fault", message: "injected fault"),
                [.error(code: "simulated_fault", message: "injected fault", fatal: false)]
            ),
            (.ended(transcript: [TranscriptLine(role: "user", text: "bye")]), [.sessionEnded(reason: "client_requested")]),
        ]
        for (output, expected) in cases {
            let events = server.frames(for: output).flatMap { client.receive($0).events }
            #expect(events == expected, "\(output)")
        }
    }

    @Test func preparedServerAudioDecodesOnTheClient() throws {
        let audio = DialectTestSupport.bytes(count: 480, seed: 6)
        let dialect = SmallestAtomsServerDialect()
        var server = dialect.makeCodec(target: "/")
        var client = SmallestAtomsClientDialect().makeCodec(parameters: [:])
        let frame = try #require(EncodedFrameTestSupport.wireFrame(server.audioFrame(dialect.prepareAudio(audio))))
        #expect(client.receive(frame) == [.agentAudio(AgentAudioChunk(audio: audio, format: .pcm16(24_000)))])
    }
}
