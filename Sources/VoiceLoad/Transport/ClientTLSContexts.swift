import NIOSSL

/// The TLS contexts client connections use.
///
/// Building an `NIOSSLContext` loads the trust roots, which costs milliseconds; the default
/// client context is built once per process and shared by every connection.
enum ClientTLSContexts {
    private static let defaultContext: Result<NIOSSLContext, TLSContextError> = Result { () throws(TLSContextError) -> NIOSSLContext in
        do {
            return try NIOSSLContext(configuration: .makeClientConfiguration())
        } catch {
            throw TLSContextError(description: "\(error)")
        }
    }

    /// Why a TLS context could not be built.
    struct TLSContextError: Error, CustomStringConvertible {
        var description: String
    }

    /// The shared default context for nil, a fresh context otherwise.
    static func context(for configuration: TLSConfiguration?) throws -> NIOSSLContext {
        guard let configuration else { return try defaultContext.get() }
        return try NIOSSLContext(configuration: configuration)
    }
}
