/// One WebSocket message as a dialect sees it: text or binary, already reassembled.
///
/// Dialect codecs take and return these, so they can be tested with literal frames and
/// know nothing of sockets.
package enum WireFrame: Sendable, Hashable {
    case text(String)
    case binary([UInt8])

    package var byteCount: Int {
        switch self {
        case .text(let string): return string.utf8.count
        case .binary(let bytes): return bytes.count
        }
    }
}
