/// Why bytes are not an RTP packet (RFC 3550 §5.1); a bad packet from a peer is counted, never a crash.
package enum RTPParseError: Error, Hashable, CustomStringConvertible {
    /// Shorter than the 12-byte fixed header.
    case tooShort(byteCount: Int)
    /// The version field is not 2.
    case unsupportedVersion(Int)
    /// The CSRC count asks for more bytes than the packet has.
    case truncatedCSRCList(csrcCount: Int, byteCount: Int)
    /// The extension bit is set and its header or data runs past the end.
    case truncatedHeaderExtension(byteCount: Int)
    /// The padding bit is set and the last byte's count is 0 or more than the bytes after the header.
    case invalidPadding(paddingBytes: Int, availableBytes: Int)

    package var description: String {
        switch self {
        case .tooShort(let byteCount):
            return "RTP packet of \(byteCount) bytes is shorter than the 12-byte header"
        case .unsupportedVersion(let version):
            return "RTP version \(version), not 2"
        case .truncatedCSRCList(let csrcCount, let byteCount):
            return "RTP packet of \(byteCount) bytes cannot hold its \(csrcCount) CSRCs"
        case .truncatedHeaderExtension(let byteCount):
            return "RTP packet of \(byteCount) bytes cannot hold its header extension"
        case .invalidPadding(let paddingBytes, let availableBytes):
            return "RTP padding of \(paddingBytes) bytes where \(availableBytes) follow the header"
        }
    }
}
