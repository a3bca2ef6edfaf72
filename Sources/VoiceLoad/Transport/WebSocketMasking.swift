import NIOCore
import NIOWebSocket

/// RFC 6455 §5.3 masking, eight bytes at a time: a payload is XORed with its 4-byte key while it
/// is copied into a buffer of its own. Every client frame is masked and every frame a server
/// receives is unmasked, so on the hot path this replaces NIO's byte-by-byte `webSocketMask`
/// and the copy-on-write of the shared, pre-encoded audio frames it would otherwise cause.
enum WebSocketMasking {
    /// Appends `payload`, masked with `key` (the key's byte 0 on the payload's first byte),
    /// to `buffer`.
    static func write(_ payload: ByteBuffer, maskedWith key: WebSocketMaskingKey, to buffer: inout ByteBuffer) {
        let count = payload.readableBytes
        guard count > 0 else { return }
        let keyBytes = (key[key.startIndex], key[key.startIndex + 1], key[key.startIndex + 2], key[key.startIndex + 3])
        // The key repeated twice, in memory order, as one word.
        let key32 = UInt32(keyBytes.0) | UInt32(keyBytes.1) << 8 | UInt32(keyBytes.2) << 16 | UInt32(keyBytes.3) << 24
        let key64 = UInt64(littleEndian: UInt64(key32) | UInt64(key32) << 32)
        let keyArray = [keyBytes.0, keyBytes.1, keyBytes.2, keyBytes.3]
        buffer.reserveCapacity(minimumWritableBytes: count)
        payload.withUnsafeReadableBytes { source in
            let written = buffer.withUnsafeMutableWritableBytes { destination -> Int in
                var index = 0
                while index + 8 <= count {
                    let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    destination.storeBytes(of: word ^ key64, toByteOffset: index, as: UInt64.self)
                    index += 8
                }
                while index < count {
                    destination[index] = source[index] ^ keyArray[index & 3]
                    index += 1
                }
                return count
            }
            buffer.moveWriterIndex(forwardBy: written)
        }
    }

    /// The payload of `frame` as sent by its peer: unmasked into a buffer of its own when the
    /// frame is masked, the frame's own data otherwise.
    static func unmaskedData(of frame: WebSocketFrame, allocator: ByteBufferAllocator) -> ByteBuffer {
        guard let key = frame.maskKey else { return frame.data }
        var buffer = allocator.buffer(capacity: frame.data.readableBytes)
        write(frame.data, maskedWith: key, to: &buffer)
        return buffer
    }
}
