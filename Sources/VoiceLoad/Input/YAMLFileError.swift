/// A problem in a YAML file the user wrote, a scenario or a dialect file: one line naming the
/// file, the place (`line:column`, 1-based) and what is wrong, e.g.
/// `acme.yaml:12:5: unknown template variable '${var.sid}' (declared: session_id)`.
package struct YAMLFileError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The file.
    package var path: String
    /// 1-based line and column of the offending YAML node, when the problem has a place.
    package var line: Int?
    package var column: Int?
    /// What is wrong, without the place, on one line (`InputError.oneLine`: it may quote the file).
    package var message: String

    package init(path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = InputError.oneLine(message)
    }

    /// `path:line:column: message`, on one line.
    package var description: String {
        switch (line, column) {
        case let (line?, column?): return "\(path):\(line):\(column): \(message)"
        case let (line?, nil): return "\(path):\(line): \(message)"
        default: return "\(path): \(message)"
        }
    }
}

/// A problem with a scenario file (docs/scenarios.md).
package typealias ScenarioError = YAMLFileError

/// A problem with a custom dialect file (docs/dialects.md).
package typealias CustomDialectError = YAMLFileError
