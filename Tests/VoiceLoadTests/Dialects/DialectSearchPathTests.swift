import Foundation
import Testing

@testable import VoiceLoad

/// `--dialect NAME` for a shipped dialect file: the search order and the not-found error.
@Suite("Dialect files by name")
struct DialectSearchPathTests {
    /// Two fresh folders `first` and `second` under a temporary directory; removed after `body`.
    static func withFolders(_ body: (String, String) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vload-dialects-\(UUID().uuidString)")
        let first = root.appendingPathComponent("first").path
        let second = root.appendingPathComponent("second").path
        try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: second, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try body(first, second)
    }

    static func write(_ folder: String, _ name: String) throws {
        try Data("dialect: \(name)\n".utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
    }

    @Test func theFirstFolderHoldingTheFileWins() throws {
        try Self.withFolders { first, second in
            try Self.write(first, "acme.yaml")
            try Self.write(second, "acme.yaml")
            try Self.write(second, "other.yaml")
            try FileManager.default.createDirectory(atPath: first + "/folder.yaml", withIntermediateDirectories: true)
            let path = DialectSearchPath(directories: [first, second])
            #expect(path.locate("acme") == first + "/acme.yaml")
            #expect(path.locate("other") == second + "/other.yaml")
            #expect(path.locate("folder") == nil, "a directory is not a dialect file")
            #expect(path.locate("missing") == nil)
            #expect(path.files().map(\.name) == ["acme", "other"])
            #expect(path.files().first?.path == first + "/acme.yaml")
        }
    }

    @Test func namesAreFileNamesNotPaths() throws {
        try Self.withFolders { first, _ in
            try Self.write(first, "acme.yaml")
            let path = DialectSearchPath(directories: [first + "/../first"])
            #expect(path.locate("acme") != nil)
            for name in ["../first/acme", "/etc/passwd", ".hidden", "", "a b"] {
                #expect(path.locate(name) == nil, "\(name)")
            }
        }
    }

    @Test func standardOrder() {
        let path = DialectSearchPath.standard(
            environment: ["VLOAD_DIALECTS_DIR": "/opt/mine"],
            executablePath: "/usr/local/bin/vload",
            checkoutDirectory: "/src/vload"
        )
        #expect(path.directories == ["/opt/mine", "dialects", "/usr/local/share/vload/dialects", "/src/vload/dialects"])
        let unset = DialectSearchPath.standard(environment: [:], executablePath: nil, checkoutDirectory: nil)
        #expect(unset.directories == ["dialects"])
    }

    @Test func theCheckoutHoldsTheShippedFiles() {
        let path = DialectSearchPath.standard(environment: [:], executablePath: nil)
        #expect(path.locate("elevenlabs-agents")?.hasSuffix("dialects/elevenlabs-agents.yaml") == true)
        #expect(path.locate("gemini-live") != nil)
        #expect(Set(path.files().map(\.name)).isSuperset(of: ["datagrid", "datagrid-rest", "elevenlabs-agents", "gemini-live"]))
    }

    @Test func notFoundNamesEveryPlaceSearched() {
        let path = DialectSearchPath(directories: ["/opt/mine", "dialects"])
        let message = path.notFoundMessage("acme", builtInIDs: ["datagrid", "openai-realtime"])
        #expect(
            message == "unknown dialect 'acme' (built in: datagrid, openai-realtime) and no acme.yaml in /opt/mine, dialects "
                + "(searched in this order; set VLOAD_DIALECTS_DIR to add a folder)"
        )
        #expect(!message.contains("\n"))
        #expect(path.notFoundMessage("x/acme", builtInIDs: ["datagrid"]).hasSuffix("give a dialect file by its path with --dialect-file"))
    }
}
