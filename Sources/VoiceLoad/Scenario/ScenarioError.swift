/// A problem with a scenario file: one line naming the file, the place and what is wrong
/// (`message` is made one line, as it may quote the file).
public struct ScenarioError: Error, CustomStringConvertible, Sendable, Hashable {
    public var path: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = InputError.oneLine(message)
    }

    public var description: String {
        switch (line, column) {
        case let (line?, column?): return "\(path):\(line):\(column): \(message)"
        case let (line?, nil): return "\(path):\(line): \(message)"
        default: return "\(path): \(message)"
        }
    }
}
