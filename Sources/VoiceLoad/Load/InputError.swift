/// A bad input from the user (scenario, audio, dialect, URL, flag): one line that names the
/// problem; the command line turns it into exit code 2.
public struct InputError: Error, CustomStringConvertible, Sendable, Hashable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
