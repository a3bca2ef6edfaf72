import NIOCore
import NIOWebSocket

/// The client's frame encoder: each frame becomes one buffer, header then payload masked as it
/// is copied (`WebSocketMasking`). One buffer per frame means one iovec per `writev`, and the
/// shared pre-encoded audio frames are read, never copied-on-write. `WebSocketFrameHandler`
/// calls it for every frame a client sends, for unfragmented frames without extension data
/// (the only ones vload sends), in place of NIO's `WebSocketFrameEncoder` in the pipeline.
package enum WebSocketFrameWriter {
    /// The wire bytes of `frame`: its header (RFC 6455 §5.2) and its payload, masked with the
    /// frame's key when it has one. Header and payload are written in one pass over one
    /// reserved region (a write per header field cost a capacity check and a generic call each).
    package static func encode(_ frame: WebSocketFrame, allocator: ByteBufferAllocator) -> ByteBuffer {
        let length = frame.data.readableBytes
        let maskBit: UInt8 = frame.maskKey == nil ? 0 : 0x80
        let lengthBytes = length <= 125 ? 0 : (length <= Int(UInt16.max) ? 2 : 8)
        let headerBytes = 2 + lengthBytes + (frame.maskKey == nil ? 0 : 4)
        var buffer = allocator.buffer(capacity: headerBytes + length)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: headerBytes + length) { destination in
            destination[0] = UInt8(frame.fin ? 0x80 : 0) | frame.reservedBits.rawValue | UInt8(webSocketOpcode: frame.opcode)
            switch lengthBytes {
            case 0:
                destination[1] = UInt8(length) | maskBit
            case 2:
                destination[1] = 126 | maskBit
                destination.storeBytes(of: UInt16(length).bigEndian, toByteOffset: 2, as: UInt16.self)
            default:
                destination[1] = 127 | maskBit
                destination.storeBytes(of: UInt64(length).bigEndian, toByteOffset: 2, as: UInt64.self)
            }
            frame.data.withUnsafeReadableBytes { payload in
                let body = UnsafeMutableRawBufferPointer(rebasing: destination[headerBytes...])
                if let key = frame.maskKey {
                    for index in 0..<4 { destination[2 + lengthBytes + index] = key[key.startIndex + index] }
                    _ = WebSocketMasking.mask(payload, with: key, into: body)
                } else {
                    body.copyMemory(from: payload)
                }
            }
            return headerBytes + length
        }
        return buffer
    }
}
