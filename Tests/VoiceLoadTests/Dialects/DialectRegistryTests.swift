import Testing
@testable import VoiceLoad

@Suite("Dialect registry")
struct DialectRegistryTests {
    @Test func idsAreSortedAndUnique() {
        #expect(DialectRegistry.ids.contains("datagrid"))
        #expect(DialectRegistry.ids == DialectRegistry.ids.sorted())
        #expect(Set(DialectRegistry.ids).count == DialectRegistry.ids.count)
    }

    @Test func looksUpBothSidesOfEveryRegisteredDialect() throws {
        for id in DialectRegistry.ids {
            #expect(try DialectRegistry.client(id).id == id)
            #expect(try DialectRegistry.server(id).id == id)
        }
        #expect(try DialectRegistry.client("datagrid") is DatagridClientDialect)
        #expect(try DialectRegistry.server("datagrid") is DatagridServerDialect)
    }

    @Test func unknownDialectIsAOneLineError() {
        #expect(throws: UnknownDialectError(id: "x", knownIDs: DialectRegistry.ids)) {
            try DialectRegistry.client("x")
        }
        #expect(throws: UnknownDialectError(id: "Datagrid", knownIDs: DialectRegistry.ids)) {
            try DialectRegistry.server("Datagrid")
        }
        do {
            _ = try DialectRegistry.client("x")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "unknown dialect 'x' (known: \(DialectRegistry.ids.joined(separator: ", ")))")
            #expect(!error.description.contains("\n"))
        }
    }
}
