import NIOSSL
import Synchronization

/// The TLS contexts client connections use: one per TLS configuration, built on first use
/// and shared by every connection of the process after it.
///
/// Building an `NIOSSLContext` loads the trust roots and any client certificate, which costs
/// milliseconds; a run builds its context once (when its plan is built) and each connection
/// only looks it up.
package enum ClientTLSContexts {
    private static let defaultContext: Result<NIOSSLContext, TLSContextError> = Result { () throws(TLSContextError) -> NIOSSLContext in
        do {
            return try NIOSSLContext(configuration: .makeClientConfiguration())
        } catch {
            throw TLSContextError(description: "\(error)")
        }
    }

    /// The contexts built so far for configurations other than the default. Looked up with
    /// `TLSConfiguration.bestEffortEquals`: a run has one, a test process a few.
    private static let built = Mutex<[(configuration: TLSConfiguration, context: NIOSSLContext)]>([])

    /// Why a TLS context could not be built.
    package struct TLSContextError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The shared default context for nil; for any other configuration, the context built
    /// for an equal one before, or a new one, kept for the next.
    package static func context(for configuration: TLSConfiguration?) throws -> NIOSSLContext {
        guard let configuration else { return try defaultContext.get() }
        if let known = built.withLock({ $0.first { $0.configuration.bestEffortEquals(configuration) }?.context }) {
            return known
        }
        let context = try NIOSSLContext(configuration: configuration)
        return built.withLock { entries in
            if let raced = entries.first(where: { $0.configuration.bestEffortEquals(configuration) }) { return raced.context }
            entries.append((configuration, context))
            return context
        }
    }
}
