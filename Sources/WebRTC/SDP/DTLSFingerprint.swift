/// A certificate's fingerprint as SDP's `a=fingerprint` carries it (RFC 8122 §5): the hash
/// function's name and the digest as upper-case hex pairs joined by colons.
package struct DTLSFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// Lower case, as in the IANA registry: "sha-256".
    package var hashFunction: String
    package var digest: [UInt8]

    package init(hashFunction: String, digest: [UInt8]) {
        self.hashFunction = hashFunction.lowercased()
        self.digest = digest
    }

    /// Reads "sha-256 AB:CD:…"; nil when the digest is not colon-separated hex pairs.
    package init?(attributeValue: some StringProtocol) {
        let fields = attributeValue.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 2 else { return nil }
        var digest: [UInt8] = []
        for pair in fields[1].split(separator: ":", omittingEmptySubsequences: false) {
            guard pair.count == 2, let byte = UInt8(pair, radix: 16) else { return nil }
            digest.append(byte)
        }
        guard !digest.isEmpty else { return nil }
        self.init(hashFunction: String(fields[0]), digest: digest)
    }

    package var attributeValue: String {
        hashFunction + " " + digest.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: ":")
    }

    package var description: String { attributeValue }
}

/// The DTLS role a side takes (RFC 5763 §5, RFC 8842): the offerer says `actpass`, the answerer
/// picks `active` (it starts the handshake) or `passive`.
package enum DTLSSetupRole: String, Sendable, Hashable {
    case active, passive, actpass, holdconn
}
