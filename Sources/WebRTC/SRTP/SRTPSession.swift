import CSRTP

/// One direction of SRTP (RFC 3711) through libsrtp2: the caller's RTP protected before it is
/// sent, or the agent's SRTP checked and decrypted. A reference to libsrtp's session state, used
/// on one event loop.
package final class SRTPSession {
    package enum Direction: Sendable { case outbound, inbound }

    private static let libraryReady: Bool = srtp_init() == srtp_err_status_ok
    private let session: srtp_t
    package let direction: Direction

    /// A session of `profile` keyed with `keyAndSalt`: the master key, then the master salt.
    package init(profile: SRTPProfile, keyAndSalt: [UInt8], direction: Direction) throws(SRTPError) {
        guard Self.libraryReady else { throw .library(status: -1, during: "srtp_init") }
        guard keyAndSalt.count == profile.keyAndSaltBytes else { throw .keyLength(keyAndSalt.count, profile: profile) }
        var created: srtp_t?
        let status = keyAndSalt.withUnsafeBufferPointer { key in
            vload_srtp_create(&created, key.baseAddress, direction == .outbound ? 1 : 0, Int32(profile.rawValue))
        }
        guard status == srtp_err_status_ok, let created else { throw .library(status: Int(status.rawValue), during: "srtp_create") }
        self.session = created
        self.direction = direction
    }

    /// This side's session for `direction` with the keys a handshake exported: its own key and
    /// salt to protect what it sends, the peer's to check what it receives.
    package convenience init(keys: SRTPKeyingMaterial, direction: Direction) throws(SRTPError) {
        try self.init(profile: keys.profile, keyAndSalt: direction == .outbound ? keys.local : keys.remote, direction: direction)
    }

    deinit { srtp_dealloc(session) }

    /// The SRTP packet for an RTP packet (outbound sessions).
    package func protect(_ rtp: [UInt8]) throws(SRTPError) -> [UInt8] {
        var buffer = rtp + [UInt8](repeating: 0, count: Int(SRTP_MAX_TRAILER_LEN))
        var length = Int32(rtp.count)
        let status = buffer.withUnsafeMutableBytes { srtp_protect(session, $0.baseAddress, &length) }
        guard status == srtp_err_status_ok else { throw .library(status: Int(status.rawValue), during: "srtp_protect") }
        return Array(buffer[..<Int(length)])
    }

    /// The RTP packet inside an SRTP packet (inbound sessions); a packet that fails
    /// authentication or replays one already seen is an error.
    package func unprotect(_ srtp: [UInt8]) throws(SRTPError) -> [UInt8] {
        var buffer = srtp
        var length = Int32(srtp.count)
        let status = buffer.withUnsafeMutableBytes { srtp_unprotect(session, $0.baseAddress, &length) }
        guard status == srtp_err_status_ok else { throw .library(status: Int(status.rawValue), during: "srtp_unprotect") }
        return Array(buffer[..<Int(length)])
    }
}

/// Why SRTP failed: libsrtp's status (srtp_err_status_t; 7 is an authentication failure, 9 and
/// 10 a replayed or too-old packet) and the call.
package enum SRTPError: Error, Hashable, CustomStringConvertible {
    case keyLength(Int, profile: SRTPProfile)
    case library(status: Int, during: String)

    package var description: String {
        switch self {
        case .keyLength(let count, let profile): return "SRTP key and salt of \(count) bytes, not \(profile)'s \(profile.keyAndSaltBytes)"
        case .library(let status, let call): return "libsrtp2 \(call) failed with status \(status)"
        }
    }
}
