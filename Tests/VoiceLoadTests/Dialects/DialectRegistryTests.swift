import Testing
@testable import VoiceLoad

@Suite("Dialect registry")
struct DialectRegistryTests {
    @Test func onlyDatagridIsRegistered() {
        #expect(DialectRegistry.ids == ["datagrid"])
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
        #expect(throws: UnknownDialectError(id: "x", knownIDs: ["datagrid"])) {
            try DialectRegistry.client("x")
        }
        #expect(throws: UnknownDialectError(id: "Datagrid", knownIDs: ["datagrid"])) {
            try DialectRegistry.server("Datagrid")
        }
        do {
            _ = try DialectRegistry.client("x")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "unknown dialect 'x' (known: datagrid)")
            #expect(!error.description.contains("\n"))
        }
    }
}
