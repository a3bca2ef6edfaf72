import Foundation
import Testing

/// The built `vload` copied alone into an empty folder, as the one file of scripts/package is
/// copied to another machine (README.md, "One file to copy"): the simulator's greeting and reply
/// are compiled in, so `vload serve` and a run against the built-in simulator need nothing beside
/// the binary, and nothing from the build folder.
@Suite("End to end: the binary copied alone", .serialized)
struct LoneBinaryTests {
    /// A new folder holding nothing but a copy of the built `vload`.
    private static func copyAlone() throws -> (folder: URL, binary: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vload-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = folder.appendingPathComponent("vload")
        try FileManager.default.copyItem(at: BadInputTests.locateBinary(), to: binary)
        return (folder, binary)
    }

    /// A SwiftPM resource bundle is a folder `PRODUCT_MODULE.resources` that the binary looks for
    /// beside itself and then, by its absolute path, in the build folder: a copy run on this
    /// machine would find it there and pass. So the binary must not name one at all.
    @Test("the binary names no resource bundle")
    func namesNoBundle() throws {
        let data = try Data(contentsOf: BadInputTests.locateBinary(), options: .alwaysMapped)
        #expect(data.range(of: Data(".resources".utf8)) == nil)
    }

    @Test("from an empty folder: vload serve answers a run of the copy, and stops with 0")
    func serve() throws {
        let (folder, binary) = try Self.copyAlone()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TLSRunTests.Server(tls: nil, binary: binary, directory: folder.path)
        let outcome = try VLoadProcess.runValid(
            ["run", "--scenario", TLSRunTests.scenario, "--clients", "2", "--url", "ws://127.0.0.1:\(server.port)/ws/voice"],
            binary: binary,
            directory: folder.path
        )
        #expect(server.stop() == 0)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test("from an empty folder: 2 clients of scenarios/greeting.yaml against the built-in simulator")
    func runBuiltInSimulator() throws {
        let (folder, binary) = try Self.copyAlone()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try VLoadProcess.runValid(
            ["run", "--clients", "2", "--scenario", repositoryRoot() + "/scenarios/greeting.yaml"],
            binary: binary,
            directory: folder.path,
            output: folder.appendingPathComponent("reports").path
        )
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("2 sessions (2 completed, 0 failed)"), "\(outcome.stdout)")
        // The reports go to ./reports of the working directory, the empty folder.
        let runs = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("reports").path)
        #expect(runs.count == 1 && runs.allSatisfy { $0.hasPrefix("greeting-") }, "\(runs)")
    }
}
