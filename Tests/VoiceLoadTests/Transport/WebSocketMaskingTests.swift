import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Masking eight bytes at a time, and the one-buffer frame writer")
struct WebSocketMaskingTests {
    @Test func masksLikeNIO() {
        var random = SeededGenerator(seed: 7)
        for length in 0..<70 {
            let key = WebSocketMaskingKey.random(using: &random)
            let payload = ByteBuffer(bytes: random.bytes(length))
            var expected = payload
            expected.webSocketMask(key)
            var masked = ByteBuffer()
            WebSocketMasking.write(payload, maskedWith: key, to: &masked)
            #expect(masked == expected, "length \(length)")
            // Masking twice gives the payload back.
            var unmasked = ByteBuffer()
            WebSocketMasking.write(masked, maskedWith: key, to: &unmasked)
            #expect(unmasked == payload)
        }
    }

    @Test func unmaskedDataOfAFrameIsItsPayload() {
        let payload = ByteBuffer(string: "a payload longer than eight bytes")
        let key: WebSocketMaskingKey = [1, 2, 3, 4]
        var masked = payload
        masked.webSocketMask(key)
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: key, data: masked)
        #expect(WebSocketMasking.unmaskedData(of: frame, allocator: ByteBufferAllocator()) == payload)
        let plain = WebSocketFrame(fin: true, opcode: .binary, data: payload)
        #expect(WebSocketMasking.unmaskedData(of: plain, allocator: ByteBufferAllocator()) == payload)
    }

    @Test func maskedMessagesUnmaskStraightIntoTheirFrame() {
        let key: WebSocketMaskingKey = [0x11, 0x22, 0x33, 0x44]
        for text in ["", "héllo, a text longer than eight bytes", "x"] {
            var masked = ByteBuffer(string: text)
            masked.webSocketMask(key)
            #expect(WebSocketMasking.unmaskedWireFrame(masked, maskedWith: key, isText: true) == .text(text))
        }
        // Invalid UTF-8 is repaired as String(buffer:) repairs it.
        let invalid = ByteBuffer(bytes: [0x61, 0xFF, 0x62, 0xC3])
        var masked = invalid
        masked.webSocketMask(key)
        #expect(WebSocketMasking.unmaskedWireFrame(masked, maskedWith: key, isText: true) == .text(String(buffer: invalid)))
        let bytes: [UInt8] = Array(0..<19)
        var maskedBytes = ByteBuffer(bytes: bytes)
        maskedBytes.webSocketMask(key)
        #expect(WebSocketMasking.unmaskedWireFrame(maskedBytes, maskedWith: key, isText: false) == .binary(bytes))
    }

    @Test(arguments: [0, 1, 125, 126, 1_000, 65_535, 65_536, 100_000])
    func writtenFramesDecodeWithNIO(length: Int) throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        defer { _ = try? channel.finish() }
        let payload = ByteBuffer(bytes: (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        for key in [nil, WebSocketMaskingKey([9, 8, 7, 6])] {
            let frame = WebSocketFrame(fin: true, opcode: .binary, maskKey: key, data: payload)
            let wire = WebSocketFrameWriter.encode(frame, allocator: channel.allocator)
            try channel.writeInbound(wire)
            let decoded = try #require(try channel.readInbound(as: WebSocketFrame.self))
            #expect(decoded.fin && decoded.opcode == .binary && decoded.maskKey == key)
            #expect(decoded.unmaskedData == payload)
        }
    }
}
