import NIOSSL

/// The certificate and key a `WebSocketListener` serves TLS with (wss://), loaded and checked
/// once: `vload serve --tls-cert --tls-key`, or a test's own.
public struct ServerTLS: Sendable {
    let context: NIOSSLContext

    /// Reads a PEM certificate chain (leaf first) and its unencrypted PEM private key. Any
    /// failure is one line naming the option and file: unreadable, not PEM, or a key that does
    /// not match the certificate.
    public init(certificateFile: String, keyFile: String) throws(InputError) {
        let chain = try PEMFile.certificates(at: certificateFile, option: "--tls-cert")
        let key = try PEMFile.privateKey(at: keyFile, option: "--tls-key")
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)
        )
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch NIOSSLError.failedToLoadPrivateKey {
            // Both files read well on their own: BoringSSL refused the pair.
            throw InputError("--tls-key \(keyFile): not the private key of the certificate in --tls-cert \(certificateFile)")
        } catch {
            throw InputError("--tls-cert \(certificateFile) / --tls-key \(keyFile): unusable: \(TLSFailure(describing: "\(error)").reason)")
        }
    }
}
