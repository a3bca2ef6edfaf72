import NIOCore
import WSCore

@testable import VoiceLoad

extension DialectTestSupport {
    /// The wire frame an encoded frame carries, so per-send frames can be checked like literals.
    static func wireFrame(of encoded: EncodedFrame) -> WireFrame {
        let bytes = encoded.payload.getBytes(at: encoded.payload.readerIndex, length: encoded.payload.readableBytes) ?? []
        switch encoded.kind {
        case .text: return .text(String(decoding: bytes, as: UTF8.self))
        case .binary: return .binary(bytes)
        }
    }
}
