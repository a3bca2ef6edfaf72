import NIOSSL

/// The certificate and key a `WebSocketListener` serves TLS with (wss://), loaded and checked
/// once (`vload serve --tls-cert --tls-key` reads them from files, a test brings its own).
package struct ServerTLS: Sendable {
    package let context: NIOSSLContext

    package init(context: NIOSSLContext) {
        self.context = context
    }
}
