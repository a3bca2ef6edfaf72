import Foundation

/// The repository's root directory, found from this file's path.
func repositoryRoot(_ file: String = #filePath) -> String {
    var url = URL(fileURLWithPath: file)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}
