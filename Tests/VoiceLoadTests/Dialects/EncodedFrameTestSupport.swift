import NIOCore
import WSCore

@testable import VoiceLoad

/// Turns the transport's encoded frames back into wire frames, so dialect tests can compare
/// prepared and per-send audio frames with literal frames.
enum EncodedFrameTestSupport {
    /// The wire frame `encoded` holds (text decoded as UTF-8).
    static func wireFrame(_ encoded: EncodedFrame?) -> WireFrame? {
        guard let encoded else { return nil }
        let bytes = Array(encoded.payload.readableBytesView)
        switch encoded.kind {
        case .text: return .text(String(decoding: bytes, as: UTF8.self))
        case .binary: return .binary(bytes)
        }
    }
}
