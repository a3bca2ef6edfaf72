import Testing
import WSClient

@testable import VoiceLoad

@Suite("Deepgram round trips between the client and the server side")
struct DeepgramRoundTripTests {
    typealias Support = DialectTestSupport

    // MARK: speech-to-text

    @Test func sttClientFramesDecodeToTheSameIntents() throws {
        var client = DeepgramSTTClientDialect().makeCodec(parameters: [:])
        var server = DeepgramSTTServerDialect().makeCodec(target: "/v1/listen")
        let audio = Support.bytes(count: 1_280, seed: 21)
        for intent: ClientIntent in [.audio(audio), .keepAlive, .commit, .stop] {
            let frames = client.frames(for: intent)
            #expect(frames.count == 1)
            #expect(try frames.flatMap { try server.receive($0) } == [intent])
        }
        let shared = client.audioFrame(DeepgramSTTClientDialect().prepareAudio(audio))
        #expect(try server.receive(.binary(Array(shared.payload.readableBytesView))) == [.audio(audio)])
    }

    @Test func sttServerOutputsDecodeToTheExpectedEvents() throws {
        let client = DeepgramSTTClientDialect()
        let target = client.endpoint(for: try WebSocketEndpoint(parsing: "ws://127.0.0.1/v1/listen"), parameters: [:]).requestTarget
        var server = DeepgramSTTServerDialect().makeCodec(target: target)
        var codec = client.makeCodec(parameters: [:])
        let interim = SpeechResult(text: "good morning", isFinal: false, speechFinal: false, startS: 0.48, durationS: 0.9)
        let final = SpeechResult(text: "Good morning!", isFinal: true, speechFinal: true, startS: 0.48, durationS: 1.32)
        let finalized = SpeechResult(text: "", isFinal: true, speechFinal: false, startS: 1.8, durationS: 0.2, fromFinalize: true)
        let cases: [(AgentOutput, [NormalizedEvent])] = [
            (.connectionOpened(sessionID: "sim-1"), []),
            (.userSpeechStarted(audioMs: 480), [.userSpeechStarted]),
            (.speechResult(interim), [.speechResult(interim), .transcript(role: "user", text: "good morning", isFinal: false)]),
            (
                .speechResult(final),
                [.speechResult(final), .transcript(role: "user", text: "Good morning!", isFinal: true), .userSpeechStopped]
            ),
            (.speechResult(finalized), [.speechResult(finalized)]),
            (.utteranceEnd(lastWordEndS: 1.8), [.utteranceEnd]),
            (.ended(transcript: []), [.sessionEnded(reason: "metadata")]),
        ]
        for (output, expected) in cases {
            let events = server.frames(for: output).flatMap { codec.receive($0).events }
            #expect(events == expected, "\(output)")
        }
    }

    @Test func sttQueryParametersReachTheServer() throws {
        let client = DeepgramSTTClientDialect()
        let endpoint = client.endpoint(
            for: try WebSocketEndpoint(parsing: "ws://127.0.0.1/v1/listen"),
            parameters: ["interim_results": .bool(false), "vad_events": .bool(false)]
        )
        var server = DeepgramSTTServerDialect().makeCodec(target: endpoint.requestTarget)
        let interim = SpeechResult(text: "a", isFinal: false, speechFinal: false, startS: 0, durationS: 0.1)
        #expect(server.frames(for: .speechResult(interim)).isEmpty)
        #expect(server.frames(for: .userSpeechStarted(audioMs: 10)).isEmpty)
    }

    // MARK: voice agent

    @Test func agentHandshakeWelcomeSettingsApplied() throws {
        let user: JSONValue = .object(["agent": .object(["greeting": .string("Hello!")])])
        var client = DeepgramAgentClientDialect().makeCodec(parameters: ["settings": user])
        var server = DeepgramAgentServerDialect().makeCodec(target: "/v1/agent/converse")
        #expect(client.framesOnOpen().isEmpty)
        let welcome = server.frames(for: .connectionOpened(sessionID: "sim-5"))
        let decoded = welcome.map { client.receive($0) }
        #expect(decoded.flatMap(\.events) == [.sessionStarted(ids: ["request_id": "sim-5"])])
        let replies = decoded.flatMap(\.replies)
        #expect(replies.count == 1)
        let intents = try replies.flatMap { try server.receive($0.frame) }
        let expected: [String: JSONValue] = [
            "type": .string("Settings"),
            "agent": .object(["greeting": .string("Hello!")]),
            "audio": .object([
                "input": .object(["encoding": .string("linear16"), "sample_rate": .number(16_000)]),
                "output": .object(["encoding": .string("linear16"), "sample_rate": .number(24_000), "container": .string("none")]),
            ]),
        ]
        #expect(intents == [.start(parameters: expected)])
        #expect(server.frames(for: .ready).flatMap { client.receive($0).events } == [.sessionReady])
    }

    @Test func agentClientFramesDecodeToTheSameIntents() throws {
        var client = DeepgramAgentClientDialect().makeCodec(parameters: [:])
        var server = DeepgramAgentServerDialect().makeCodec(target: "/")
        let intents: [ClientIntent] = [
            .audio(Support.bytes(count: 640, seed: 31)), .keepAlive, .text("Wie geht's? \"gut\" / \\ 🎙"),
            .toolResult(callID: "call_1", name: "get_weather", output: #"{"temp":21}"#),
        ]
        for intent in intents {
            #expect(try client.frames(for: intent).flatMap { try server.receive($0) } == [intent], "\(intent)")
        }
    }

    @Test func agentServerOutputsDecodeToTheExpectedEvents() {
        var server = DeepgramAgentServerDialect().makeCodec(target: "/")
        var client = DeepgramAgentClientDialect().makeCodec(parameters: [:])
        let audio = Support.bytes(count: 960, seed: 41)
        let cases: [(AgentOutput, [NormalizedEvent])] = [
            (.ready, [.sessionReady]),
            (.userSpeechStarted(audioMs: 300), [.userSpeechStarted]),
            (.userSpeechStopped(audioMs: 900), []),
            (
                .agentTurnStarted(turnKey: "resp_1", latencyMs: 640),
                [
                    .agentSpeechStarted(turnKey: nil),
                    .serverLatency(name: "server_total_latency_ms", valueUs: 640_000),
                    .serverLatency(name: "server_tts_latency_ms", valueUs: 256_000),
                    .serverLatency(name: "server_ttt_latency_ms", valueUs: 384_000),
                ]
            ),
            (.audio(audio), [.agentAudio(AgentAudioChunk(audio: audio, format: .pcm16(24_000)))]),
            (.agentAudioDone(turnKey: "resp_1"), [.agentSpeechEnded(turnKey: nil), .turnComplete(turnKey: nil)]),
            (
                .turnComplete(turnKey: "resp_1"),
                [
                    .serverLatency(name: "server_total_latency_ms", valueUs: 640_000),
                    .serverLatency(name: "server_tts_latency_ms", valueUs: 256_000),
                ]
            ),
            (.transcript(TranscriptLine(role: "agent", text: "Sure.")), [.transcript(role: "assistant", text: "Sure.", isFinal: true)]),
            (.transcript(TranscriptLine(role: "user", text: "this is", isFinal: false)), []),
            (.transcript(TranscriptLine(role: "user", text: "this is it")), [.transcript(role: "user", text: "this is it", isFinal: true)]),
            (
                .toolCall(name: "get_weather", status: "requested", id: "call_sim-1_1", arguments: #"{"city":"Oslo"}"#),
                [
                    .toolCall(name: "get_weather", status: "requested", id: "call_sim-1_1", arguments: #"{"city":"Oslo"}"#)
                ]
            ),
            (.error(code: nil, message: "quota exceeded"), [.error(code: "SIMULATED_ERROR", message: "quota exceeded", fatal: true)]),
            (
                .error(code: "simulated_fault", message: "injected fault"),
                [.error(code: "simulated_fault", message: "injected fault", fatal: true)]
            ),
            (.interrupted, []),
            (.ended(transcript: []), []),
        ]
        for (output, expected) in cases {
            let events = server.frames(for: output).flatMap { client.receive($0).events }
            #expect(events == expected, "\(output)")
        }
    }
}
