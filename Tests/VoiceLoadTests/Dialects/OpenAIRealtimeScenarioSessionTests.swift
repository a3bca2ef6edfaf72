import Foundation
import Testing

@testable import VoiceLoad

@Suite("OpenAI Realtime: the scenario's session block, manual turns and audio formats")
struct OpenAIRealtimeScenarioSessionTests {
    typealias Support = DialectTestSupport

    private func sessionUpdate(
        _ parameters: [String: JSONValue],
        dialect: any ClientDialect = OpenAIRealtimeClientDialect()
    ) -> [String: JSONValue] {
        var codec = dialect.makeCodec(parameters: parameters)
        guard case .object(let root)? = Support.json(codec.framesOnOpen().first), case .object(let session)? = root["session"] else {
            Issue.record("no session.update")
            return [:]
        }
        return session
    }

    private func input(_ session: [String: JSONValue]) -> [String: JSONValue] {
        guard case .object(let audio)? = session["audio"], case .object(let input)? = audio["input"] else { return [:] }
        return input
    }

    @Test func sessionFieldsMayStandInTheBlockItselfOrUnderSession() {
        let tools: JSONValue = .array([.object(["type": .string("function"), "name": .string("get_weather")])])
        let direct = sessionUpdate(["instructions": .string("Be brief."), "tools": tools, "ephemeral": .bool(true)])
        let nested = sessionUpdate(["session": .object(["instructions": .string("Be brief."), "tools": tools]), "ephemeral": .bool(true)])
        #expect(direct == nested)
        #expect(direct["instructions"] == .string("Be brief."))
        #expect(direct["tools"] == tools)
        #expect(direct["ephemeral"] == nil)  // another dialect's parameter stays out
    }

    @Test func manualTurnsReachTheServerAsNullInEitherSpelling() {
        let ga = sessionUpdate(["audio": .object(["input": .object(["turn_detection": .null])])])
        let beta = sessionUpdate(["turn_detection": .null])
        #expect(input(ga)["turn_detection"] == .null)
        #expect(input(beta)["turn_detection"] == .null)
        #expect(beta["turn_detection"] == nil)
        #expect(input(sessionUpdate([:]))["turn_detection"] == .object(["type": .string("server_vad")]))
    }

    @Test func manualTurnsCommitAndAskForAResponseAfterEachUtterance() {
        var manual = OpenAIRealtimeClientDialect().makeCodec(parameters: ["turn_detection": .null])
        #expect(
            manual.framesAfterUtterance().map(Support.json) == [
                Support.json(#"{"type":"input_audio_buffer.commit"}"#), Support.json(#"{"type":"response.create"}"#),
            ]
        )
        var serverVAD = OpenAIRealtimeClientDialect().makeCodec(parameters: [:])
        #expect(serverVAD.framesAfterUtterance().isEmpty)
    }

    @Test func theScenarioChoosesTheAudioFormats() throws {
        let pcmu: JSONValue = .object(["type": .string("audio/pcmu")])
        let parameters: [String: JSONValue] = [
            "audio": .object([
                "input": .object(["format": pcmu]), "output": .object(["format": pcmu]),
            ])
        ]
        let dialect = try OpenAIRealtimeClientDialect().configured(parameters: parameters, url: "wss://api.openai.com/v1/realtime")
        #expect(dialect.inputFormat == .mulaw8k)
        #expect(dialect.outputFormat == .mulaw8k)
        #expect(input(sessionUpdate(parameters, dialect: dialect))["format"] == pcmu)
        let wide = try OpenAIRealtimeClientDialect().configured(
            parameters: [
                "audio": .object(["input": .object(["format": .object(["type": .string("audio/pcm"), "rate": .number(16_000)])])])
            ],
            url: "ws://127.0.0.1:8765/v1/realtime"
        )
        #expect(wide.inputFormat == .pcm16(16_000))
        #expect(wide.outputFormat == .pcm16(24_000))
    }

    @Test func openAIsOwnServiceTakesOnly24kHzPCMOrG711() throws {
        let parameters: [String: JSONValue] = [
            "audio": .object(["input": .object(["format": .object(["type": .string("audio/pcm"), "rate": .number(16_000)])])])
        ]
        #expect(throws: InputError.self) {
            try OpenAIRealtimeClientDialect().configured(parameters: parameters, url: "wss://api.openai.com/v1/realtime?model=gpt-realtime")
        }
        // G.711 A-law (audio/pcma) is streamed as such, to OpenAI's service too.
        let alaw = try OpenAIRealtimeClientDialect().configured(
            parameters: ["audio": .object(["input": .object(["format": .object(["type": .string("audio/pcma")])])])],
            url: "wss://api.openai.com/v1/realtime?model=gpt-realtime"
        )
        #expect(alaw.inputFormat == .alaw8k)
        #expect(throws: InputError.self) {
            try OpenAIRealtimeClientDialect().configured(
                parameters: ["audio": .object(["input": .object(["format": .object(["type": .string("audio/g729")])])])],
                url: ""
            )
        }
    }
}
