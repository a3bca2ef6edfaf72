import NIOSSL
import WSServer

extension ServerTLS {
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
        let context = try PEMFile.context(certificate: ("--tls-cert", certificateFile), key: ("--tls-key", keyFile)) {
            try NIOSSLContext(configuration: configuration)
        }
        self.init(context: context)
    }
}
