import VoiceLoad

/// The dialect a command runs: a built-in by id, or a custom YAML dialect (`--dialect-file`)
/// with the headers and subprotocols its `connect:` declares.
struct ResolvedDialect {
    let dialect: any ClientDialect
    let extras: (headers: [HTTPHeaderField], subprotocols: [String])

    init(id: String, file: String?) throws(InputError) {
        guard let file else {
            do {
                dialect = try DialectRegistry.client(id)
            } catch {
                throw InputError(error.description)
            }
            extras = ([], [])
            return
        }
        let custom: CustomDialect
        do {
            custom = try CustomDialect.load(path: file)
        } catch {
            throw InputError(error.description)
        }
        dialect = custom
        extras = (custom.headers.map { HTTPHeaderField(name: $0.0, value: $0.1) }, custom.subprotocols)
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
