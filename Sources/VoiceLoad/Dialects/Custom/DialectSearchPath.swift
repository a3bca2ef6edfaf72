import Foundation

/// Where `--dialect NAME` finds a shipped dialect file `NAME.yaml` when NAME is not a built-in
/// id (docs/dialects.md#choosing-a-dialect-by-name): an ordered list of directories, the first
/// holding the file wins.
package struct DialectSearchPath: Sendable, Hashable {
    /// The environment variable naming a directory searched first.
    package static let environmentVariable = "VLOAD_DIALECTS_DIR"

    /// The directories in search order, each as given (relative ones against the working
    /// directory), without repeats.
    package let directories: [String]

    package init(directories: [String]) {
        var seen: Set<String> = []
        self.directories = directories.filter { !$0.isEmpty && seen.insert(Self.standardized($0)).inserted }
    }

    /// The standard order: `$VLOAD_DIALECTS_DIR`, `./dialects`, `<executable's dir>/../share/vload/dialects`,
    /// and the `dialects/` folder of the source checkout vload was built from.
    package static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String? = DialectSearchPath.currentExecutablePath(),
        checkoutDirectory: String? = DialectSearchPath.sourceCheckoutDirectory
    ) -> DialectSearchPath {
        var directories: [String] = []
        if let override = environment[environmentVariable], !override.isEmpty { directories.append(override) }
        directories.append("dialects")
        if let executablePath {
            let binDirectory = URL(fileURLWithPath: executablePath).deletingLastPathComponent()
            directories.append(binDirectory.deletingLastPathComponent().appendingPathComponent("share/vload/dialects").path)
        }
        if let checkoutDirectory { directories.append(URL(fileURLWithPath: checkoutDirectory).appendingPathComponent("dialects").path) }
        return DialectSearchPath(directories: directories)
    }

    /// Whether `name` can name a file: letters, digits, `.`, `_` and `-`, not starting with `.`.
    package static func isFileName(_ name: String) -> Bool {
        guard let first = name.first, first != "." else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// The path of `NAME.yaml` in the first directory holding it, nil when none does.
    package func locate(_ name: String) -> String? {
        guard Self.isFileName(name) else { return nil }
        for directory in directories {
            let path = (directory as NSString).appendingPathComponent(name + ".yaml")
            if Self.isRegularFile(path) { return path }
        }
        return nil
    }

    /// Every `NAME.yaml` the search path holds, by name, with the path `locate` gives for it;
    /// sorted by name.
    package func files() -> [(name: String, path: String)] {
        var names: Set<String> = []
        for directory in directories {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for entry in entries where entry.hasSuffix(".yaml") {
                let name = String(entry.dropLast(".yaml".count))
                if Self.isFileName(name) { names.insert(name) }
            }
        }
        return names.sorted().compactMap { name in locate(name).map { (name, $0) } }
    }

    /// The one-line error for a dialect `id` that is neither built in nor a file here.
    package func notFoundMessage(_ id: String, builtInIDs: [String]) -> String {
        let builtIn = "unknown dialect '\(id)' (built in: \(builtInIDs.joined(separator: ", ")))"
        guard Self.isFileName(id) else { return builtIn + "; give a dialect file by its path with --dialect-file" }
        return builtIn + " and no \(id).yaml in " + directories.joined(separator: ", ")
            + " (searched in this order; set \(Self.environmentVariable) to add a folder)"
    }

    /// This process's executable (Linux `/proc/self/exe`, else the bundle's).
    package static func currentExecutablePath() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath
    }

    /// The source checkout this file was compiled from (the folder holding `Sources/`).
    package static let sourceCheckoutDirectory: String? = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.path
    }()

    private static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
