import Foundation
import TestSupport

/// The repository's root directory, found from this file's path.
func repositoryRoot(_ file: String = #filePath) -> String {
    var url = URL(fileURLWithPath: file)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}

/// The report.json a run wrote in `directory`, checked against schemas/report.schema.json:
/// the violations (empty when it conforms).
func schemaViolations(ofReportIn directory: URL) throws -> [String] {
    let data = try Data(contentsOf: directory.appendingPathComponent("report.json"))
    return try JSONSchemaValidator.reportSchema().violations(of: data)
}

/// A `vload` process started from the built binary in the repository's root.
struct VLoadProcess {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()

    /// `vload ARGUMENTS`, or with `script`, `/bin/sh SCRIPT ARGUMENTS` with `VLOAD` set to the binary.
    init(_ arguments: [String], script: String? = nil) throws {
        if let script {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [script] + arguments
            var environment = ProcessInfo.processInfo.environment
            environment["VLOAD"] = BadInputTests.locateBinary().path
            process.environment = environment
        } else {
            process.executableURL = BadInputTests.locateBinary()
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Whether the process has not ended yet.
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` (SIGINT, SIGTERM) to the process.
    func send(signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end and returns what it printed.
    func finish() -> Outcome {
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }

    /// Runs `vload` with `arguments` to the end.
    static func run(_ arguments: [String]) throws -> Outcome {
        try VLoadProcess(arguments).finish()
    }
}
