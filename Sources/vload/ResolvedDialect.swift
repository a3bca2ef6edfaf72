import VoiceLoad

/// The dialect a command runs: a built-in by id, a custom YAML dialect (`--dialect-file`), or
/// a shipped dialect file found by name when the id is not a built-in one
/// (docs/dialects.md#choosing-a-dialect-by-name), with the headers and subprotocols its
/// `connect:` declares.
struct ResolvedDialect {
    let dialect: any ClientDialect
    let extras: (headers: [HTTPHeaderField], subprotocols: [String])
    /// The dialect file, when the dialect came from one.
    let filePath: String?

    /// `--dialect file:PATH` is `--dialect-file PATH`.
    init(id: String, file: String?, searchPath: DialectSearchPath = .standard()) throws(InputError) {
        let path: String?
        if id.hasPrefix(Self.filePrefix) {
            guard file == nil else { throw InputError("--dialect \(id) and --dialect-file both name a dialect file: give one") }
            path = String(id.dropFirst(Self.filePrefix.count))
            guard path?.isEmpty == false else { throw InputError("--dialect file: needs a path (--dialect file:my-dialect.yaml)") }
        } else if let file {
            path = file
        } else {
            path = try Self.shippedFile(id, searchPath: searchPath)
        }
        guard let path else {
            do {
                dialect = try DialectRegistry.client(id)
            } catch {
                throw InputError(error.description)
            }
            extras = ([], [])
            filePath = nil
            return
        }
        let custom: CustomDialect
        do {
            custom = try CustomDialect.load(path: path)
        } catch {
            throw InputError(error.description)
        }
        dialect = custom
        extras = (custom.headers.map { HTTPHeaderField(name: $0.0, value: $0.1) }, custom.subprotocols)
        filePath = path
    }

    /// What makes a dialect id a file path: `--dialect file:my-dialect.yaml`.
    static let filePrefix = "file:"

    /// The shipped file for `id`: nil for a built-in id; an error when there is none.
    private static func shippedFile(_ id: String, searchPath: DialectSearchPath) throws(InputError) -> String? {
        guard !DialectRegistry.clientIDs.contains(id) else { return nil }
        guard let path = searchPath.locate(id) else {
            throw InputError(searchPath.notFoundMessage(id, builtInIDs: DialectRegistry.clientIDs))
        }
        return path
    }
}

extension ScenarioLoader {
    /// The scenario file for a name or path, or a one-line error.
    static func locateForCommandLine(_ nameOrPath: String) throws(InputError) -> String {
        guard let path = locate(nameOrPath) else {
            throw InputError("scenario '\(nameOrPath)' not found (looked for \(nameOrPath) and scenarios/\(nameOrPath).yaml)")
        }
        return path
    }

    /// The scenario at `path`, or a one-line error with file, line and column.
    static func loadForCommandLine(path: String) throws(InputError) -> Scenario {
        do {
            return try load(path: path)
        } catch {
            throw InputError(error.description)
        }
    }
}
