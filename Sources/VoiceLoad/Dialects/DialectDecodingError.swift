/// Why a server-side dialect could not turn a frame into intents.
package enum DialectDecodingError: Error, Sendable, Hashable {
    /// Well-formed, but a message type this dialect does not know.
    case unknownType(String)
    /// Not parseable as this dialect's message.
    case malformed(String)
}
