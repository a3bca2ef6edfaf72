/// The SRTP master keys and salts the DTLS handshake exports for the profile it agreed (RFC 5764
/// §4.2): the label "EXTRACTOR-dtls_srtp" gives client key, server key, client salt, server salt,
/// in that order.
package struct SRTPKeyingMaterial: Sendable, Hashable {
    package static let exporterLabel = "EXTRACTOR-dtls_srtp"

    /// The profile the handshake agreed; it sizes the keys and salts.
    package let profile: SRTPProfile
    /// Key then salt for what this side sends, and for what it receives.
    package let local: [UInt8]
    package let remote: [UInt8]

    /// How many bytes the exporter gives for `profile`: two keys and two salts.
    package static func exportedBytes(for profile: SRTPProfile) -> Int { 2 * profile.keyAndSaltBytes }

    /// Splits the exported bytes for the side that was the DTLS client or server.
    package init(exported: [UInt8], isClient: Bool, profile: SRTPProfile) {
        precondition(
            exported.count == Self.exportedBytes(for: profile),
            "DTLS-SRTP exports \(Self.exportedBytes(for: profile)) bytes for \(profile), got \(exported.count)")
        let key = profile.keyBytes
        let salt = profile.saltBytes
        let clientKey = exported[0..<key]
        let serverKey = exported[key..<2 * key]
        let clientSalt = exported[2 * key..<2 * key + salt]
        let serverSalt = exported[2 * key + salt..<2 * key + 2 * salt]
        let client = Array(clientKey + clientSalt)
        let server = Array(serverKey + serverSalt)
        self.profile = profile
        self.local = isClient ? client : server
        self.remote = isClient ? server : client
    }
}
