import Testing

@testable import VoiceLoad

@Suite("Deepgram dialects in the registry")
struct DeepgramRegistryTests {
    @Test func bothDeepgramDialectsAreRegistered() {
        #expect(DialectRegistry.ids.contains("deepgram-agent"))
        #expect(DialectRegistry.ids.contains("deepgram-stt"))
    }

    @Test func looksUpBothSides() throws {
        #expect(try DialectRegistry.client("deepgram-stt") is DeepgramSTTClientDialect)
        #expect(try DialectRegistry.server("deepgram-stt") is DeepgramSTTServerDialect)
        #expect(try DialectRegistry.client("deepgram-agent") is DeepgramAgentClientDialect)
        #expect(try DialectRegistry.server("deepgram-agent") is DeepgramAgentServerDialect)
        #expect(try DialectRegistry.client("deepgram-flux") is DeepgramFluxClientDialect)
        #expect(try DialectRegistry.server("deepgram-flux") is DeepgramFluxServerDialect)
    }

    @Test func registeredSidesAgreeOnFormats() throws {
        for id in ["deepgram-stt", "deepgram-agent", "deepgram-flux"] {
            let client = try DialectRegistry.client(id)
            let server = try DialectRegistry.server(id)
            #expect(client.inputFormat == server.inputFormat, "\(id)")
            #expect(client.outputFormat == server.outputFormat, "\(id)")
        }
        #expect(try DialectRegistry.server("deepgram-stt").speaks == false)
        #expect(try DialectRegistry.server("deepgram-agent").speaks)
    }

    @Test func idsAreCaseSensitive() {
        #expect(throws: UnknownDialectError.self) { try DialectRegistry.client("Deepgram-STT") }
        #expect(throws: UnknownDialectError.self) { try DialectRegistry.server("deepgram") }
    }
}
