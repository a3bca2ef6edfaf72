/// An SRTP protection profile that DTLS's use_srtp extension can agree (RFC 5764 §4.1.2, RFC 7714
/// §14.2), named by its id on the wire. vload offers both, AEAD_AES_128_GCM first: aiortc offers
/// it first too and libwebrtc supports it, and Debian's libsrtp2 does it in about a third of the
/// instructions of AES_CM_128_HMAC_SHA1_80 (BENCHMARKS.md, "SRTP's profile"), which every WebRTC
/// stack supports and a peer without GCM agrees instead.
package enum SRTPProfile: UInt, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// AES-128 in Galois/Counter Mode (RFC 7714): a 16-byte key, a 12-byte salt, a 16-byte tag.
    case aeadAES128GCM = 0x0007
    /// AES-128 in counter mode with HMAC-SHA1 cut to 80 bits (RFC 3711): a 16-byte key, a 14-byte
    /// salt, a 10-byte tag.
    case aes128CMHMACSHA1_80 = 0x0001

    /// What vload offers, most preferred first; as a DTLS server it agrees the first of these
    /// that the client offers too.
    package static let offered: [SRTPProfile] = [.aeadAES128GCM, .aes128CMHMACSHA1_80]

    package var keyBytes: Int { 16 }
    package var saltBytes: Int {
        switch self {
        case .aeadAES128GCM: return 12
        case .aes128CMHMACSHA1_80: return 14
        }
    }
    package var keyAndSaltBytes: Int { keyBytes + saltBytes }
    /// What a protected RTP packet grows by: GCM's authentication tag, or HMAC-SHA1's 80 bits.
    package var tagBytes: Int {
        switch self {
        case .aeadAES128GCM: return 16
        case .aes128CMHMACSHA1_80: return 10
        }
    }

    /// The profile's name in IANA's registry of DTLS-SRTP protection profiles, as reports give it.
    package var ianaName: String {
        switch self {
        case .aeadAES128GCM: return "SRTP_AEAD_AES_128_GCM"
        case .aes128CMHMACSHA1_80: return "SRTP_AES128_CM_HMAC_SHA1_80"
        }
    }

    /// The name SDP security descriptions (RFC 4568) and browsers' statistics (`srtpCipher`) give it.
    package var sdesName: String {
        switch self {
        case .aeadAES128GCM: return "AEAD_AES_128_GCM"
        case .aes128CMHMACSHA1_80: return "AES_CM_128_HMAC_SHA1_80"
        }
    }

    /// The names `--srtp-profiles` takes for it, upper-cased: IANA's, OpenSSL's and SDES's.
    package var names: Set<String> { [ianaName, description, sdesName] }

    /// The name OpenSSL's `SSL_CTX_set_tlsext_use_srtp` takes, as RFC 5764 and RFC 7714 spell it.
    package var description: String {
        switch self {
        case .aeadAES128GCM: return "SRTP_AEAD_AES_128_GCM"
        case .aes128CMHMACSHA1_80: return "SRTP_AES128_CM_SHA1_80"
        }
    }
}
