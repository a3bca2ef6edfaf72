import Testing

@testable import VoiceLoad

@Suite("Registry lookups of the Smallest and ADK dialects")
struct SmallestADKRegistryTests {
    @Test func smallestAtomsIsRegisteredAt24kHz() throws {
        #expect(DialectRegistry.ids.contains("smallest-atoms"))
        let client = try #require(try DialectRegistry.client("smallest-atoms") as? SmallestAtomsClientDialect)
        #expect(client.sampleRateHz == 24_000)
        let server = try #require(try DialectRegistry.server("smallest-atoms") as? SmallestAtomsServerDialect)
        #expect(server.sampleRateHz == 24_000)
    }

    @Test(arguments: ADKVariant.allCases)
    func everyADKVariantIsRegistered(variant: ADKVariant) throws {
        #expect(DialectRegistry.ids.contains(variant.id))
        let client = try #require(try DialectRegistry.client(variant.id) as? ADKClientDialect)
        #expect(client.variant == variant)
        let server = try #require(try DialectRegistry.server(variant.id) as? ADKServerDialect)
        #expect(server.variant == variant)
    }
}
