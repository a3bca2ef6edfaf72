import Foundation
import Testing

@testable import VoiceLoad

@Suite("OpenAI Realtime round trips between the client and the server side")
struct OpenAIRealtimeRoundTripTests {
    typealias Support = DialectTestSupport

    @Test func sessionUpdateOnOpenStartsTheServerSessionWithItsSessionObject() throws {
        let client = OpenAIRealtimeClientDialect()
        var clientCodec = client.makeCodec(parameters: ["session": .object(["instructions": .string("Hi")])])
        var serverCodec = OpenAIRealtimeServerDialect().makeCodec(target: "/v1/realtime?model=gpt-realtime")
        let intents = try clientCodec.framesOnOpen().flatMap { try serverCodec.receive($0) }
        var expected = OpenAIRealtimeSession.defaults(inputFormat: .pcm16(24_000), outputFormat: .pcm16(24_000))
        expected["instructions"] = .string("Hi")
        #expect(intents == [.start(parameters: expected)])
    }

    @Test func clientIntentsReachTheServer() throws {
        var clientCodec = OpenAIRealtimeClientDialect().makeCodec(parameters: [:])
        var serverCodec = OpenAIRealtimeServerDialect().makeCodec(target: "/")
        let audio = Support.bytes(count: 1_920, seed: 11)
        let cases: [(ClientIntent, [ClientIntent])] = [
            (.audio(audio), [.audio(audio)]),
            (.interrupt, [.interrupt]),
            (.commit, [.commit]),
            (.text("Wie geht's? \"gut\" / \\ 🎙"), [.text("Wie geht's? \"gut\" / \\ 🎙")]),
            (.toolResult(callID: "call_x", name: "lookup", output: "42"), [.toolResult(callID: "call_x", name: "", output: "42")]),
        ]
        for (intent, expected) in cases {
            let intents = try clientCodec.frames(for: intent).flatMap { try serverCodec.receive($0) }
            #expect(intents == expected, "\(intent)")
        }
        let shared = try #require(OpenAIRealtimeClientDialect().prepareAudio(audio).sharedFrame)
        #expect(
            try serverCodec.receive(Support.wireFrame(of: clientCodec.audioFrame(PreparedAudio(sharedFrame: shared, byteCount: 1_920))))
                == [.audio(audio)]
        )
    }

    @Test func aToolCallRoundTripKeepsTheToolName() throws {
        var clientCodec = OpenAIRealtimeClientDialect().makeCodec(parameters: [:])
        var serverCodec = OpenAIRealtimeServerDialect().makeCodec(target: "/")
        let call = serverCodec.frames(for: .toolCall(name: "lookup_order", status: "started"))
        #expect(
            call.flatMap { clientCodec.receive($0).events }
                == [.toolCall(name: "lookup_order", status: "requested", id: "call_1", arguments: "{}")]
        )
        let result = clientCodec.frames(for: .toolResult(callID: "call_1", name: "lookup_order", output: "shipped"))
        #expect(
            try result.flatMap { try serverCodec.receive($0) } == [.toolResult(callID: "call_1", name: "lookup_order", output: "shipped")]
        )
    }

    @Test func aToolCallCarriesItsCallIDAndArgumentsBothWays() throws {
        var clientCodec = OpenAIRealtimeClientDialect().makeCodec(parameters: [:])
        var serverCodec = OpenAIRealtimeServerDialect().makeCodec(target: "/")
        let arguments = #"{"city":"Paris","days":2}"#
        let call = serverCodec.frames(for: .toolCall(name: "get_weather", status: "requested", id: "call_sim-1_1", arguments: arguments))
        #expect(
            call.flatMap { clientCodec.receive($0).events }
                == [.toolCall(name: "get_weather", status: "requested", id: "call_sim-1_1", arguments: arguments)]
        )
        let result = clientCodec.frames(for: .toolResult(callID: "call_sim-1_1", name: "get_weather", output: "sunny"))
        #expect(
            try result.flatMap { try serverCodec.receive($0) }
                == [.toolResult(callID: "call_sim-1_1", name: "get_weather", output: "sunny")]
        )
    }

    @Test func aSimulatedSessionDecodesToTheExpectedEvents() {
        var serverCodec = OpenAIRealtimeServerDialect().makeCodec(target: "/")
        var clientCodec = OpenAIRealtimeClientDialect().makeCodec(parameters: [:])
        let audio = Support.bytes(count: 960, seed: 12)
        let chunk = AgentAudioChunk(audio: audio, format: .pcm16(24_000), turnKey: "resp_1")
        let cases: [(AgentOutput, [NormalizedEvent])] = [
            (.connectionOpened(sessionID: "sim-7"), [.sessionStarted(ids: ["session_id": "sim-7"])]),
            (.sessionStarted(sessionID: "sim-7", conversationID: "conv"), []),
            (.ready, [.sessionReady]),
            (.userSpeechStarted(audioMs: 400), [.userSpeechStarted]),
            (.userSpeechStopped(audioMs: 1_900), [.userSpeechStopped]),
            (
                .transcript(TranscriptLine(role: "user", text: "Hallo", isFinal: false)),
                [.transcript(role: "user", text: "Hallo", isFinal: false)]
            ),
            (.transcript(TranscriptLine(role: "user", text: "Hallo du")), [.transcript(role: "user", text: "Hallo du", isFinal: true)]),
            (.agentTurnStarted(turnKey: "resp_1", latencyMs: 650), [.agentSpeechStarted(turnKey: "resp_1")]),
            (.audio(audio), [.agentAudio(chunk)]),
            (
                .transcript(TranscriptLine(role: "agent", text: "Hi", isFinal: false)),
                [.transcript(role: "agent", text: "Hi", isFinal: false)]
            ),
            (.transcript(TranscriptLine(role: "agent", text: "Hi there")), [.transcript(role: "agent", text: "Hi there", isFinal: true)]),
            (.agentAudioDone(turnKey: "resp_1"), [.agentSpeechEnded(turnKey: "resp_1")]),
            (.turnComplete(turnKey: "resp_1"), [.turnComplete(turnKey: "resp_1")]),
            (.interrupted, []),
            (.responseCancelled(turnKey: "resp_2"), [.responseCancelled(turnKey: "resp_2"), .turnComplete(turnKey: "resp_2")]),
            (.error(code: nil, message: "quota exceeded"), [.error(code: "server_error", message: "quota exceeded", fatal: false)]),
            (
                .error(code: "simulated_fault", message: "injected fault"),
                [.error(code: "simulated_fault", message: "injected fault", fatal: false)]
            ),
            (.ended(transcript: []), []),
        ]
        for (output, expected) in cases {
            let events = serverCodec.frames(for: output).flatMap { clientCodec.receive($0).events }
            #expect(events == expected, "\(output)")
        }
        _ = serverCodec.frames(for: .agentTurnStarted(turnKey: "resp_3", latencyMs: 0))
        let prepared = OpenAIRealtimeServerDialect().prepareAudio(audio)
        #expect(
            clientCodec.receive(Support.wireFrame(of: serverCodec.audioFrame(prepared))).events
                == [.agentAudio(AgentAudioChunk(audio: audio, format: .pcm16(24_000), turnKey: "resp_3"))]
        )
    }
}

@Suite("OpenAI Realtime truncation")
struct OpenAIRealtimeTruncationTests {
    @Test("after agent audio, a barge-in truncates that item at what was heard; the server reads it back")
    func truncateRoundTrip() throws {
        var client = OpenAIRealtimeClientDialect().makeCodec(parameters: [:])
        #expect(client.frames(for: .playbackTruncated(audioEndMs: 100)).isEmpty)  // nothing heard yet
        let delta =
            #"{"type":"response.output_audio.delta","response_id":"resp_1","item_id":"item_9","output_index":0,"content_index":0,"delta":"AAAA"}"#
        _ = client.receive(.text(delta))
        let frames = client.frames(for: .playbackTruncated(audioEndMs: 1_480))
        #expect(frames.count == 1)
        guard case .text(let text)? = frames.first else {
            Issue.record("not a text frame")
            return
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "conversation.item.truncate")
        #expect(object["item_id"] as? String == "item_9" && object["audio_end_ms"] as? Int == 1_480 && object["content_index"] as? Int == 0)
        var server = OpenAIRealtimeServerDialect().makeCodec(target: "/v1/realtime")
        #expect(try server.receive(.text(text)) == [.playbackTruncated(audioEndMs: 1_480)])
    }
}
