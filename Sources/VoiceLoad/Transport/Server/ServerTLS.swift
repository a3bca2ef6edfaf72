import NIOSSL

/// The certificate and key a `WebSocketListener` serves TLS with (wss://), loaded and checked
/// once: `vload serve --tls-cert --tls-key`, or a test's own.
package struct ServerTLS: Sendable {
    let context: NIOSSLContext

    /// Reads a PEM certificate chain (leaf first) and its unencrypted PEM private key. Any
    /// failure is one line naming the option and file: unreadable, not PEM, or a key that does
    /// not match the certificate.
    package init(certificateFile: String, keyFile: String) throws(InputError) {
        let chain = try PEMFile.certificates(at: certificateFile, option: "--tls-cert")
        let key = try PEMFile.privateKey(at: keyFile, option: "--tls-key")
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(key)
        )
        context = try PEMFile.context(certificate: ("--tls-cert", certificateFile), key: ("--tls-key", keyFile)) {
            try NIOSSLContext(configuration: configuration)
        }
    }
}
