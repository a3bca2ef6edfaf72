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
