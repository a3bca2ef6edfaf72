import NIOCore
import NIOWebSocket

/// RFC 6455 §5.3 masking, eight bytes at a time: a payload is XORed with its 4-byte key while it
/// is copied into a buffer of its own. Every client frame is masked and every frame a server
/// receives is unmasked, so on the hot path this replaces NIO's byte-by-byte `webSocketMask`
/// and the copy-on-write of the shared, pre-encoded audio frames it would otherwise cause.
package enum WebSocketMasking {
    /// Appends `payload`, masked with `key` (the key's byte 0 on the payload's first byte),
    /// to `buffer`.
    package static func write(_ payload: ByteBuffer, maskedWith key: WebSocketMaskingKey, to buffer: inout ByteBuffer) {
        let count = payload.readableBytes
        guard count > 0 else { return }
        buffer.reserveCapacity(minimumWritableBytes: count)
        payload.withUnsafeReadableBytes { source in
            let written = buffer.withUnsafeMutableWritableBytes { destination in
                mask(source, with: key, into: destination)
            }
            buffer.moveWriterIndex(forwardBy: written)
        }
    }

    /// The payload of a masked message as a frame of its own kind, unmasked as it is copied
    /// out of the receive buffer: one copy, not one into a buffer and another into the frame.
    package static func unmaskedWireFrame(_ payload: ByteBuffer, maskedWith key: WebSocketMaskingKey, isText: Bool) -> WireFrame {
        let count = payload.readableBytes
        return payload.withUnsafeReadableBytes { source in
            if isText {
                // Invalid UTF-8 is repaired, as `String(buffer:)` does.
                return .text(
                    String(unsafeUninitializedCapacity: count) { mask(source, with: key, into: UnsafeMutableRawBufferPointer($0)) }
                )
            }
            return .binary(
                [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
                    initialized = mask(source, with: key, into: UnsafeMutableRawBufferPointer(bytes))
                }
            )
        }
    }

    /// XORs `source` with the repeated key into `destination` (at least as large), eight bytes
    /// at a time; returns the number of bytes written.
    package static func mask(
        _ source: UnsafeRawBufferPointer,
        with key: WebSocketMaskingKey,
        into destination: UnsafeMutableRawBufferPointer
    ) -> Int {
        let count = source.count
        let key32 =
            UInt32(key[key.startIndex]) | UInt32(key[key.startIndex + 1]) << 8
            | UInt32(key[key.startIndex + 2]) << 16 | UInt32(key[key.startIndex + 3]) << 24
        // The key twice, as a word whose bytes in memory are the key's in order.
        let key64 = UInt64(littleEndian: UInt64(key32) | UInt64(key32) << 32)
        var index = 0
        while index + 8 <= count {
            let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            destination.storeBytes(of: word ^ key64, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        // The last 0–7 bytes: the key word shifted to their offset (index is a multiple of 8).
        var tail = key64.littleEndian
        while index < count {
            destination[index] = source[index] ^ UInt8(truncatingIfNeeded: tail)
            tail >>= 8
            index += 1
        }
        return count
    }

    /// The payload of `frame` as sent by its peer: unmasked into a buffer of its own when the
    /// frame is masked, the frame's own data otherwise.
    package static func unmaskedData(of frame: WebSocketFrame, allocator: ByteBufferAllocator) -> ByteBuffer {
        guard let key = frame.maskKey else { return frame.data }
        var buffer = allocator.buffer(capacity: frame.data.readableBytes)
        write(frame.data, maskedWith: key, to: &buffer)
        return buffer
    }
}
