import Testing

@testable import VoiceLoad

@Suite("Datagrid round trips between the client and the server side")
struct DatagridRoundTripTests {
    static let intents: [ClientIntent] = [
        .start(parameters: [
            "agent_id": .string("agent_abc123"), "ephemeral": .bool(true),
            "voice_config": .object([
                "silent_start": .bool(true), "silence_commit_ms": .number(30_000),
                "silence_discard_ratio": .number(0.9),
            ]),
            "file_ids": .array([]), "user": .null,
        ]),
        .start(parameters: [:]),
        .audio(DialectTestSupport.bytes(count: 1_280, seed: 1)),
        .audio([0xFF, 0xFF, 0xFF, 0xFB, 0xEF]),
        .interrupt,
        .stop,
        .text("Hello \"agent\" / \\ \n 🎙"),
    ]

    @Test(arguments: [false, true])
    func clientEncodeThenServerDecodeGivesTheSameIntents(asBinary: Bool) throws {
        let client = DatagridClientDialect(sendsJSONAsBinary: asBinary)
        let server = DatagridServerDialect()
        for intent in Self.intents {
            guard let frame = client.encode(intent) else {
                Issue.record("no frame for \(intent)")
                continue
            }
            #expect(try server.decode(frame) == [intent])
        }
    }

    @Test func openingFramesDecodeToStart() throws {
        let parameters: [String: JSONValue] = ["agent_id": .string("a"), "ephemeral": .bool(true)]
        let frames = DatagridClientDialect().openingFrames(parameters: parameters)
        #expect(try frames.flatMap { try DatagridServerDialect().decode($0) } == [.start(parameters: parameters)])
    }

    @Test(arguments: [false, true])
    func serverEncodeThenClientDecodeGivesTheExpectedEvents(asBinary: Bool) throws {
        let server = DatagridServerDialect(sendsJSONAsBinary: asBinary)
        let client = DatagridClientDialect()
        let audio = DialectTestSupport.bytes(count: 960, seed: 9)
        let cases: [(AgentOutput, [NormalizedEvent])] = [
            (
                .sessionStarted(sessionID: "sess_9", conversationID: "conv_9"),
                [.sessionStarted(ids: ["session_id": "sess_9", "conversation_id": "conv_9"])]
            ),
            (.ready, [.sessionReady]),
            (.audio(audio), [.agentAudio(AgentAudioChunk(audio: audio, format: .pcm16(24_000)))]),
            (.audio([]), []),
            (.interrupted, [.agentInterrupted]),
            (.toolCall(name: "search", status: "completed"), [.toolCall(name: "search", status: "completed")]),
            (
                .toolCall(name: "search", status: "started", id: "call_sim-1_1", arguments: #"{"q":"Oslo","n":3}"#),
                [.toolCall(name: "search", status: "started", id: "call_sim-1_1", arguments: #"{"n":3,"q":"Oslo"}"#)]
            ),
            (.transcript(TranscriptLine(role: "user", text: "this is it")), [.transcript(role: "user", text: "this is it", isFinal: true)]),
            (
                .transcript(TranscriptLine(role: "user", text: "Wie geht's? \"ok\"", isFinal: false)),
                [.transcript(role: "user", text: "Wie geht's? \"ok\"", isFinal: false)]
            ),
            (.transcript(TranscriptLine(role: "agent", text: "Gut.")), [.transcript(role: "agent", text: "Gut.", isFinal: true)]),
            (
                .error(code: nil, message: "quota exceeded\nretry later"),
                [.error(code: nil, message: "quota exceeded\nretry later", fatal: true)]
            ),
            // Datagrid errors carry a message only.
            (.error(code: "simulated_fault", message: "injected fault"), [.error(code: nil, message: "injected fault", fatal: true)]),
            (.ended(transcript: [TranscriptLine(role: "user", text: "bye")]), [.sessionEnded(reason: nil)]),
        ]
        for (output, expected) in cases {
            let frame = try #require(server.encode(output), "\(output)")
            #expect(client.decode(frame) == expected, "\(output)")
        }
        // Outputs Datagrid has no message for encode to nothing.
        for output: AgentOutput in [.connectionOpened(sessionID: "s"), .userSpeechStarted(audioMs: 1), .turnComplete(turnKey: "t")] {
            #expect(server.encode(output) == nil)
            #expect(server.frames(for: output).isEmpty)
        }
    }

    @Test func audioChunkDurationAndSilence() throws {
        let chunk = AgentAudioChunk(audio: [UInt8](repeating: 0, count: 960), format: DatagridClientDialect().outputFormat)
        #expect(chunk.durationUs == 20_000)
        #expect(chunk.rmsLevel == 0)
        let frame = try #require(DatagridServerDialect().encode(.audio([UInt8](repeating: 0, count: 960))))
        let events = DatagridClientDialect().decode(frame)
        #expect(events == [.agentAudio(chunk)])
    }
}
