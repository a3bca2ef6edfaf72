/// Why a path or a template placeholder could not be read: a one-line reason, to which the
/// loader adds the file, line and column.
package struct CustomSyntaxError: Error, Sendable, Hashable {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }
}
