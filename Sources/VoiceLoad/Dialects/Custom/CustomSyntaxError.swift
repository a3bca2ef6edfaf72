/// Why a path or a template placeholder could not be read: a one-line reason, to which the
/// loader adds the file, line and column.
struct CustomSyntaxError: Error, Sendable, Hashable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
