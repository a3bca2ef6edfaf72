import Testing

@testable import VoiceLoad

@Suite("ADK round trips between the client and the server side")
struct ADKRoundTripTests {
    @Test(arguments: ADKVariant.allCases)
    func clientEncodeThenServerDecodeGivesTheSameIntents(variant: ADKVariant) throws {
        var client = ADKClientDialect(variant: variant).makeCodec(parameters: [:])
        var server = ADKServerDialect(variant: variant).makeCodec(target: "/ws/1")
        for intent: ClientIntent in [.audio(DialectTestSupport.bytes(count: 1_600, seed: 21)), .text("Hello \"agent\" / \\ \n 🎙")] {
            let frames = client.frames(for: intent)
            #expect(frames.count == 1, "\(intent)")
            #expect(try frames.flatMap { try server.receive($0) } == [intent])
        }
    }

    @Test(arguments: ADKVariant.allCases)
    func preparedAudioReachesTheServerAsTheSameBytes(variant: ADKVariant) throws {
        let bytes = DialectTestSupport.bytes(count: 1_600, seed: 22)
        let dialect = ADKClientDialect(variant: variant)
        var client = dialect.makeCodec(parameters: [:])
        var server = ADKServerDialect(variant: variant).makeCodec(target: "/")
        let frame = try #require(EncodedFrameTestSupport.wireFrame(client.audioFrame(dialect.prepareAudio(bytes))))
        #expect(try server.receive(frame) == [.audio(bytes)])
    }

    /// Every output the simulator emits for an ADK session, in a session's order, plus the
    /// transcripts, tool calls and errors the server side can frame.
    @Test(arguments: ADKVariant.allCases)
    func serverEncodeThenClientDecodeGivesTheExpectedEvents(variant: ADKVariant) throws {
        let serverDialect = ADKServerDialect(variant: variant)
        var server = serverDialect.makeCodec(target: "/ws/1")
        var client = ADKClientDialect(variant: variant).makeCodec(parameters: [:])
        let audio = DialectTestSupport.bytes(count: 4_800, seed: 23)
        let hasTranscripts = variant != .legacy
        let toolEvents: [NormalizedEvent]
        switch variant {
        case .seed: toolEvents = [.toolCall(name: "get_weather", status: "completed", arguments: #"{"city":"Berlin"}"#)]
        case .legacy: toolEvents = []
        case .events: toolEvents = [.toolCall(name: "get_weather", status: "called", id: "call_sim-1_1", arguments: #"{"city":"Berlin"}"#)]
        }
        let errorEvents: [NormalizedEvent] = variant == .events ? [.error(code: "INTERNAL", message: "overloaded", fatal: false)] : []
        let codedErrorEvents: [NormalizedEvent] =
            variant == .events ? [.error(code: "simulated_fault", message: "injected fault", fatal: false)] : []
        let cases: [(AgentOutput, [NormalizedEvent])] = [
            (.connectionOpened(sessionID: "sim-1"), []),
            (.ready, []),
            (.userSpeechStarted(audioMs: 100), []),
            (.userSpeechStopped(audioMs: 1_200), []),
            (.agentTurnStarted(turnKey: "resp_1", latencyMs: 700), []),
            (.audio(audio), [.agentAudio(AgentAudioChunk(audio: audio, format: .pcm16(24_000)))]),
            (.agentAudioDone(turnKey: "resp_1"), []),
            (.turnComplete(turnKey: "resp_1"), [.turnComplete(turnKey: nil)]),
            (.interrupted, [.agentInterrupted]),
            (.responseCancelled(turnKey: "resp_2"), []),
            (
                .transcript(TranscriptLine(role: "user", text: "Wie geht's?", isFinal: true)),
                hasTranscripts ? [.transcript(role: "user", text: "Wie geht's?", isFinal: true)] : []
            ),
            (
                .transcript(TranscriptLine(role: "user", text: "this is", isFinal: false)),
                hasTranscripts ? [.transcript(role: "user", text: "this is", isFinal: false)] : []
            ),
            (
                .transcript(TranscriptLine(role: "assistant", text: "Gu", isFinal: false)),
                hasTranscripts ? [.transcript(role: "assistant", text: "Gu", isFinal: false)] : []
            ),
            (.toolCall(name: "get_weather", status: "started", id: "call_sim-1_1", arguments: #"{"city":"Berlin"}"#), toolEvents),
            // The tool's completion has no event vload measures (events: a functionResponse part).
            (.toolCall(name: "get_weather", status: "completed", id: "call_sim-1_1", arguments: "{}"), []),
            (.error(code: nil, message: "overloaded"), errorEvents),
            (.error(code: "simulated_fault", message: "injected fault"), codedErrorEvents),
            (.ended(transcript: []), []),
        ]
        for (output, expected) in cases {
            let events = server.frames(for: output).flatMap { client.receive($0).events }
            #expect(events == expected, "\(variant) \(output)")
        }
        let frame = try #require(EncodedFrameTestSupport.wireFrame(server.audioFrame(serverDialect.prepareAudio(audio))))
        #expect(client.receive(frame) == [.agentAudio(AgentAudioChunk(audio: audio, format: .pcm16(24_000)))])
    }
}
