import NIOSSL
import WSClient

/// How a run's client connections do TLS, as the command line gives it (docs/tls.md): extra
/// trust roots, no verification at all, or a client certificate. Turned into the run's one
/// `TLSConfiguration` when its plan is built.
package struct ClientTLSOptions: Sendable, Hashable {
    /// A PEM file of CA certificates trusted in addition to the system's roots (`--ca-file`).
    package var caFile: String?
    /// Skip verification of the server's certificate and host name (`--insecure`).
    package var insecure: Bool
    /// The client certificate chain (PEM, leaf first) offered to a server that asks (`--cert`).
    package var certificateFile: String?
    /// The private key of `certificateFile` (PEM, unencrypted; `--key`).
    package var keyFile: String?

    package init(caFile: String? = nil, insecure: Bool = false, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.insecure = insecure
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    /// Nothing asked of TLS: system roots, full verification, no client certificate.
    package var isDefault: Bool { self == ClientTLSOptions() }

    /// The run's TLS configuration; nil for the default. Reads and checks every file, and
    /// builds the context once, so that a bad file or a key that does not match its
    /// certificate is one line naming it (exit 2), not an error in every session.
    func configuration() throws(InputError) -> TLSConfiguration? {
        guard !isDefault else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if insecure { configuration.certificateVerification = .none }
        if let caFile {
            configuration.additionalTrustRoots = [.certificates(try PEMFile.certificates(at: caFile, option: "--ca-file"))]
        }
        switch (certificateFile, keyFile) {
        case (nil, nil):
            break
        case (let certificateFile?, let keyFile?):
            configuration.certificateChain = try PEMFile.certificates(at: certificateFile, option: "--cert").map { .certificate($0) }
            configuration.privateKey = .privateKey(try PEMFile.privateKey(at: keyFile, option: "--key"))
        case (_?, nil):
            throw InputError("--cert needs --key (the client certificate's private key)")
        case (nil, _?):
            throw InputError("--key needs --cert (the client certificate it belongs to)")
        }
        _ = try PEMFile.context(
            certificate: certificateFile.map { ("--cert", $0) },
            key: keyFile.map { ("--key", $0) },
            otherFiles: [caFile].compactMap { $0 }
        ) { try ClientTLSContexts.context(for: configuration) }
        return configuration
    }
}
