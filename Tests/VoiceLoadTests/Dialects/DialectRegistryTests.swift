import Testing

@testable import VoiceLoad

@Suite("Dialect registry")
struct DialectRegistryTests {
    @Test func idsAreSortedAndIncludeTheImplementedDialects() {
        #expect(DialectRegistry.ids == DialectRegistry.ids.sorted())
        #expect(Set(DialectRegistry.ids).count == DialectRegistry.ids.count)
        for id in [
            "adk-events", "adk-legacy", "adk-seed", "datagrid", "openai-realtime", "pipecat-protobuf", "smallest-atoms",
            "twilio-media-streams",
        ] {
            #expect(DialectRegistry.ids.contains(id))
        }
    }

    @Test("every dialect states the provider API version it speaks; a dialect file its api_version")
    func apiVersions() throws {
        for id in DialectRegistry.ids {
            #expect(try !DialectRegistry.client(id).apiVersion.isEmpty, "\(id)")
        }
        #expect(try DialectRegistry.client("deepgram-agent").apiVersion.hasPrefix("Voice Agent v1"))
        #expect(try DialectRegistry.client("openai-realtime").apiVersion.hasPrefix("Realtime GA"))
        let stated = try CustomDialectTestSupport.dialect("api_version: \"v2 (/v2/voice)\"\n")
        #expect(stated.apiVersion == "v2 (/v2/voice)")
        #expect(try CustomDialectTestSupport.dialect("").apiVersion == "not stated in the file (api_version)")
    }

    @Test("the types a dialect reads by name: OpenAI's and Deepgram's lists, none elsewhere")
    func typesRead() throws {
        let openAI = try DialectRegistry.client("openai-realtime").typesRead
        #expect(openAI.contains("response.output_audio.delta") && openAI.contains("response.audio.delta"))
        #expect(try DialectRegistry.client("deepgram-agent").typesRead.contains("ConversationText"))
        #expect(try DialectRegistry.client("deepgram-stt").typesRead.contains("Results"))
        #expect(try DialectRegistry.client("datagrid").typesRead.isEmpty)
    }

    @Test func looksUpBothSidesOfEveryRegisteredDialect() throws {
        for id in DialectRegistry.ids {
            #expect(try DialectRegistry.client(id).id == id)
            #expect(try DialectRegistry.server(id).id == id)
        }
        #expect(try DialectRegistry.client("datagrid") is DatagridClientDialect)
        #expect(try DialectRegistry.server("datagrid") is DatagridServerDialect)
        #expect(try DialectRegistry.client("openai-realtime") is OpenAIRealtimeClientDialect)
        #expect(try DialectRegistry.server("openai-realtime") is OpenAIRealtimeServerDialect)
        #expect(try DialectRegistry.client("twilio-media-streams") is TwilioMediaStreamsClientDialect)
        #expect(try DialectRegistry.server("twilio-media-streams") is TwilioMediaStreamsServerDialect)
    }

    @Test func registeredDialectsHaveTheirDocumentedSignals() throws {
        let openAI = try DialectRegistry.client("openai-realtime")
        #expect(openAI.readySignal == .event && openAI.turnEndSignal == .event)
        #expect(openAI.authentication == .header(name: "Authorization", prefix: "Bearer "))
        let twilio = try DialectRegistry.client("twilio-media-streams")
        #expect(twilio.readySignal == .onOpen && twilio.turnEndSignal == .audioGap)
        #expect(twilio.authentication == .sessionParameter(name: "token") && twilio.defaultFrameMs == 20)
        #expect(try DialectRegistry.server("openai-realtime").sessionStart == .onClientStart)
        #expect(try DialectRegistry.server("twilio-media-streams").sessionStart == .onClientStart)
    }

    @Test func unknownDialectIsAOneLineError() {
        let known = DialectRegistry.clientIDs
        #expect(throws: UnknownDialectError(id: "x", knownIDs: known)) {
            try DialectRegistry.client("x")
        }
        #expect(throws: UnknownDialectError(id: "Datagrid", knownIDs: DialectRegistry.ids)) {
            try DialectRegistry.server("Datagrid")
        }
        do {
            _ = try DialectRegistry.client("x")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "unknown dialect 'x' (known: \(known.joined(separator: ", ")))")
            #expect(!error.description.contains("\n"))
        }
    }
}
