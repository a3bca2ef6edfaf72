import Foundation
import Testing
import WSClient
import WSCore

@testable import VoiceLoad

/// Azure Voice Live: the OpenAI Realtime dialect's codecs with the `azureVoiceLive` profile
/// (docs/dialects.md). The field names are the azure-ai-voicelive 1.3.1 SDK's `RequestSession`
/// and `ServerEventType` members; the conformance suite checks them against the installed SDK.
@Suite("Azure Voice Live: the OpenAI event family with Voice Live's session, key and names")
struct AzureVoiceLiveTests {
    typealias Support = DialectTestSupport
    let dialect = OpenAIRealtimeClientDialect(profile: .azureVoiceLive)

    @Test("registered as azure-voice-live, with an api-key header and PCM16 24 kHz both ways")
    func defaults() throws {
        let registered = try DialectRegistry.client("azure-voice-live")
        #expect(registered.id == "azure-voice-live")
        #expect(registered.authentication == .header(name: "api-key", prefix: ""))
        #expect(registered.inputFormat == .pcm16(24_000) && registered.outputFormat == .pcm16(24_000))
        #expect(registered.readySignal == .event && registered.turnEndSignal == .event)
        #expect(registered.apiVersion.contains("2026-07-15"))
        #expect(try DialectRegistry.server("azure-voice-live").id == "azure-voice-live")
    }

    @Test("the session.update is Voice Live's flat session: pcm16 at the input rate, azure_semantic_vad with its end-of-utterance model")
    func sessionUpdate() {
        var codec = dialect.makeCodec(parameters: [:])
        #expect(
            Support.json(codec.framesOnOpen().first)
                == Support.json(
                    """
                    {"type":"session.update","session":{
                      "modalities":["text","audio"],
                      "input_audio_format":"pcm16","input_audio_sampling_rate":24000,"output_audio_format":"pcm16",
                      "turn_detection":{"type":"azure_semantic_vad","end_of_utterance_detection":{"model":"semantic_detection_v1"}},
                      "input_audio_transcription":{"model":"azure-speech"}}}
                    """
                )
        )
    }

    @Test("the scenario's Voice Live fields (noise suppression, echo cancellation, voice) pass through; others stay out")
    func scenarioFields() throws {
        let parameters: [String: JSONValue] = [
            "input_audio_noise_reduction": .object(["type": .string("azure_deep_noise_suppression")]),
            "input_audio_echo_cancellation": .object(["type": .string("server_echo_cancellation")]),
            "voice": .object(["name": .string("en-US-Ava:DragonHDLatestNeural"), "type": .string("azure-standard")]),
            "ephemeral": .bool(true),
        ]
        var codec = dialect.makeCodec(parameters: parameters)
        guard case .object(let event)? = Support.json(codec.framesOnOpen().first), case .object(let session)? = event["session"] else {
            Issue.record("no session object")
            return
        }
        #expect(session["input_audio_noise_reduction"] == parameters["input_audio_noise_reduction"])
        #expect(session["input_audio_echo_cancellation"] == parameters["input_audio_echo_cancellation"])
        #expect(session["voice"] == parameters["voice"])
        #expect(session["ephemeral"] == nil && session["audio"] == nil)
    }

    @Test("turn_detection null: manual turns, the client commits each utterance")
    func manualTurns() throws {
        let parameters: [String: JSONValue] = ["turn_detection": .null]
        let configured = try dialect.configured(parameters: parameters, url: "wss://r.services.ai.azure.com/voice-live/realtime")
        var codec = configured.makeCodec(parameters: parameters)
        #expect(
            codec.framesAfterUtterance().map(Support.json) == [
                Support.json(#"{"type":"input_audio_buffer.commit"}"#), Support.json(#"{"type":"response.create"}"#),
            ]
        )
        var opened = configured.makeCodec(parameters: parameters)
        guard case .object(let event)? = Support.json(opened.framesOnOpen().first), case .object(let session)? = event["session"] else {
            Issue.record("no session object")
            return
        }
        #expect(session["turn_detection"] == .null)
        #expect(OpenAIRealtimeSession.hasManualTurns(session))
    }

    @Test("input_audio_sampling_rate 16000 streams 16 kHz; other rates and formats are one-line errors")
    func inputFormats() throws {
        let url = "wss://r.services.ai.azure.com/voice-live/realtime"
        let sixteen = try dialect.configured(parameters: ["input_audio_sampling_rate": .int(16_000)], url: url)
        #expect(sixteen.inputFormat == .pcm16(16_000) && sixteen.outputFormat == .pcm16(24_000))
        #expect(throws: InputError.self) { try dialect.configured(parameters: ["input_audio_sampling_rate": .int(44_100)], url: url) }
        #expect(throws: InputError.self) {
            try dialect.configured(parameters: ["input_audio_format": .string("g711_ulaw")], url: url)
        }
    }

    @Test("the URL gets api-version and model when it names neither")
    func endpoint() throws {
        let base = try WebSocketEndpoint(parsing: "wss://r.services.ai.azure.com/voice-live/realtime")
        #expect(
            dialect.endpoint(for: base, parameters: [:]).urlString
                == "wss://r.services.ai.azure.com/voice-live/realtime?api-version=2026-07-15&model=gpt-realtime"
        )
        let named = try WebSocketEndpoint(parsing: "wss://r.services.ai.azure.com/voice-live/realtime?api-version=2025-10-01&model=gpt-4o")
        #expect(dialect.endpoint(for: named, parameters: ["model": .string("other")]) == named)
    }

    @Test(
        "the simulator's side sends response.audio.delta and response.audio_transcript.*, which the client reads as audio and transcripts"
    )
    func serverNames() throws {
        var server = OpenAIRealtimeServerCodec(inputFormat: .pcm16(24_000), outputFormat: .pcm16(24_000), profile: .azureVoiceLive)
        _ = server.frames(for: .agentTurnStarted(turnKey: "resp_1", latencyMs: 700))
        let audio = server.frames(for: .audio(Support.bytes(count: 960, seed: 1)))
        let done = server.frames(for: .agentAudioDone(turnKey: "resp_1"))
        let transcript = server.frames(for: .transcript(TranscriptLine(role: "agent", text: "hi", isFinal: true)))
        #expect(Support.json(audio.first)?.objectValue?["type"] == .string("response.audio.delta"))
        #expect(Support.json(done.first)?.objectValue?["type"] == .string("response.audio.done"))
        #expect(Support.json(transcript.first)?.objectValue?["type"] == .string("response.audio_transcript.done"))
        var client = dialect.makeCodec(parameters: [:])
        let events = client.receive(try #require(audio.first)).events
        #expect(events.contains { if case .agentAudio = $0 { return true } else { return false } })
    }
}
