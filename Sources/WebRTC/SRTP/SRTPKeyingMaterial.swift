/// The SRTP master keys and salts the DTLS handshake exports (RFC 5764 §4.2): the label
/// "EXTRACTOR-dtls_srtp" gives client key, server key, client salt, server salt, in that order.
package struct SRTPKeyingMaterial: Sendable, Hashable {
    package static let keyBytes = 16
    package static let saltBytes = 14
    package static let keyAndSaltBytes = keyBytes + saltBytes
    package static let exportedBytes = 2 * keyAndSaltBytes
    package static let exporterLabel = "EXTRACTOR-dtls_srtp"

    /// Key then salt for what this side sends, and for what it receives.
    package let local: [UInt8]
    package let remote: [UInt8]

    /// Splits the exported bytes for the side that was the DTLS client or server.
    package init(exported: [UInt8], isClient: Bool) {
        precondition(exported.count == Self.exportedBytes, "DTLS-SRTP exports 60 bytes, got \(exported.count)")
        let clientKey = exported[0..<16]
        let serverKey = exported[16..<32]
        let clientSalt = exported[32..<46]
        let serverSalt = exported[46..<60]
        let client = Array(clientKey + clientSalt)
        let server = Array(serverKey + serverSalt)
        self.local = isClient ? client : server
        self.remote = isClient ? server : client
    }
}
