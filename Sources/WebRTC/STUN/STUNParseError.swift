/// Why bytes are not a STUN message vload accepts (RFC 8489 §6.3): a bad datagram from a peer is
/// dropped and counted, never a crash.
package enum STUNParseError: Error, Hashable, CustomStringConvertible {
    case tooShort(byteCount: Int)
    /// The top two bits are not zero, the cookie is not 0x2112A442, or the length is not the datagram's.
    case notSTUN
    case unknownMessageType(UInt16)
    case truncatedAttribute(type: UInt16)
    case malformedAttribute(type: UInt16)
    /// MESSAGE-INTEGRITY does not match the key, or is missing where a key was given.
    case integrityMismatch
    /// FINGERPRINT does not match the message's CRC-32.
    case fingerprintMismatch

    package var description: String {
        switch self {
        case .tooShort(let byteCount): return "STUN message of \(byteCount) bytes is shorter than the 20-byte header"
        case .notSTUN: return "not a STUN message (bad leading bits, magic cookie or length)"
        case .unknownMessageType(let type): return "STUN message type 0x\(String(type, radix: 16)) is not a Binding message"
        case .truncatedAttribute(let type): return "STUN attribute 0x\(String(type, radix: 16)) runs past the message"
        case .malformedAttribute(let type): return "STUN attribute 0x\(String(type, radix: 16)) has a malformed value"
        case .integrityMismatch: return "STUN MESSAGE-INTEGRITY does not match the ICE password"
        case .fingerprintMismatch: return "STUN FINGERPRINT does not match the message"
        }
    }
}
