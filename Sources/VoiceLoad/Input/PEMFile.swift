import Foundation
import NIOSSL
import WSClient

/// Reads the PEM files the command line names (CA roots, certificates, private keys), each
/// failure one line naming the option and the file (exit 2).
enum PEMFile {
    /// Every certificate in the PEM file at `path`, at least one.
    static func certificates(at path: String, option: String) throws(InputError) -> [NIOSSLCertificate] {
        let bytes = try contents(of: path, option: option)
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(bytes)
        } catch {
            throw InputError("\(option) \(path): not a PEM certificate file (\(error))")
        }
        guard !certificates.isEmpty else {
            throw InputError("\(option) \(path): no certificate in it (expected '-----BEGIN CERTIFICATE-----')")
        }
        return certificates
    }

    /// The private key in the PEM file at `path` (unencrypted: PKCS#8, RSA or EC).
    static func privateKey(at path: String, option: String) throws(InputError) -> NIOSSLPrivateKey {
        let bytes = try contents(of: path, option: option)
        do {
            return try NIOSSLPrivateKey(bytes: bytes, format: .pem)
        } catch {
            throw InputError("\(option) \(path): not an unencrypted PEM private key (\(error))")
        }
    }

    /// The TLS context `build` makes from files read here, or one line naming them: a key that
    /// is not the certificate's (each file read well on its own, BoringSSL refused the pair),
    /// or any other refusal with its reason. `certificate` and `key` are (option, path).
    static func context(
        certificate: (option: String, path: String)?,
        key: (option: String, path: String)?,
        otherFiles: [String] = [],
        _ build: () throws -> NIOSSLContext
    ) throws(InputError) -> NIOSSLContext {
        do {
            return try build()
        } catch NIOSSLError.failedToLoadPrivateKey where certificate != nil && key != nil {
            throw InputError(
                "\(key?.option ?? "") \(key?.path ?? ""): not the private key of the certificate in \(certificate?.option ?? "") \(certificate?.path ?? "")"
            )
        } catch {
            let files = ([certificate?.path, key?.path].compactMap { $0 } + otherFiles).joined(separator: ", ")
            throw InputError("TLS settings (\(files)) unusable: \(TLSFailure(describing: "\(error)").reason)")
        }
    }

    private static func contents(of path: String, option: String) throws(InputError) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw InputError("\(option) \(path): cannot read it: \(FileErrorText.reason(of: error))")
        }
    }
}
