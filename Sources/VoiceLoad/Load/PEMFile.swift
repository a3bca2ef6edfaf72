import Foundation
import NIOSSL

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

    private static func contents(of path: String, option: String) throws(InputError) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw InputError("\(option) \(path): cannot read it: \(FileErrorText.reason(of: error))")
        }
    }
}
