import NIOCore
import NIOWebSocket

/// The client's outbound frame encoder: each frame becomes one buffer, header then payload
/// masked as it is copied (`WebSocketMasking`). One buffer per frame means one iovec per
/// `writev`, and the shared pre-encoded audio frames are read, never copied-on-write. Replaces
/// NIO's `WebSocketFrameEncoder` on the client side, for unfragmented frames without extension
/// data (the only ones vload sends).
package final class WebSocketFrameWriter: ChannelOutboundHandler {
    package typealias OutboundIn = WebSocketFrame
    package typealias OutboundOut = ByteBuffer

    package init() {}

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = Self.unwrapOutboundIn(data)
        context.write(Self.wrapOutboundOut(Self.encode(frame, allocator: context.channel.allocator)), promise: promise)
    }

    /// The wire bytes of `frame`: its header (RFC 6455 §5.2) and its payload, masked with the
    /// frame's key when it has one.
    package static func encode(_ frame: WebSocketFrame, allocator: ByteBufferAllocator) -> ByteBuffer {
        let length = frame.data.readableBytes
        var buffer = allocator.buffer(capacity: length + 14)
        let maskBit: UInt8 = frame.maskKey == nil ? 0 : 0x80
        buffer.writeInteger(UInt8(frame.fin ? 0x80 : 0) | frame.reservedBits.rawValue | UInt8(webSocketOpcode: frame.opcode))
        switch length {
        case 0...125:
            buffer.writeInteger(UInt8(length) | maskBit)
        case 126...Int(UInt16.max):
            buffer.writeInteger(126 | maskBit)
            buffer.writeInteger(UInt16(length))
        default:
            buffer.writeInteger(127 | maskBit)
            buffer.writeInteger(UInt64(length))
        }
        if let key = frame.maskKey {
            buffer.writeBytes(key)
            WebSocketMasking.write(frame.data, maskedWith: key, to: &buffer)
        } else {
            var payload = frame.data
            buffer.writeBuffer(&payload)
        }
        return buffer
    }
}

@available(*, unavailable)
extension WebSocketFrameWriter: Sendable {}
