/// Why bytes are not JSON text.
package struct JSONSyntaxError: Error, Hashable, Sendable {
    /// The byte offset where reading stopped.
    package var offset: Int
}
