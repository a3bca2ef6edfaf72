import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Transport frame handler")
struct TransportFrameHandlerTests {
    /// An active embedded channel with a frame handler and its event recorder.
    private func makeChannel(role: WebSocketFrameHandler.Role = .server) throws -> (EmbeddedChannel, WebSocketEventRecorder) {
        let recorder = WebSocketEventRecorder()
        let handler = WebSocketFrameHandler(role: role, maxMessageBytes: 1 << 20, onEvent: recorder.handler)
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        return (channel, recorder)
    }

    /// The next frame a client-role handler wrote: it writes each frame's bytes (header and masked
    /// payload), read back here with NIO's decoder.
    private func clientFrame(from channel: EmbeddedChannel) throws -> WebSocketFrame? {
        guard let bytes = try channel.readOutbound(as: ByteBuffer.self) else { return nil }
        let decoder = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder()))
        try decoder.writeInbound(bytes)
        defer { _ = try? decoder.finish() }
        return try decoder.readInbound(as: WebSocketFrame.self)
    }

    private func frame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: opcode, data: ByteBuffer(string: text))
    }

    private func closeFrame(code: UInt16, reason: String) -> WebSocketFrame {
        var payload = ByteBuffer()
        payload.writeInteger(code)
        payload.writeString(reason)
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
    }

    @Test("a ping is answered with a pong carrying the same payload")
    func pingPong() throws {
        let (channel, recorder) = try makeChannel()
        try channel.writeInbound(frame(.ping, "are you there"))
        let pong = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(pong.opcode == .pong)
        #expect(pong.fin)
        #expect(pong.maskKey == nil)
        #expect(String(buffer: pong.data) == "are you there")
        #expect(recorder.events.isEmpty)
        _ = try channel.finish()
    }

    @Test("a client's pong is masked and unmasks to the ping payload")
    func clientPongIsMasked() throws {
        let (channel, _) = try makeChannel(role: .client)
        try channel.writeInbound(frame(.ping, "abc"))
        let pong = try #require(try clientFrame(from: channel))
        #expect(pong.opcode == .pong)
        #expect(pong.maskKey != nil)
        #expect(pong.data != ByteBuffer(string: "abc"))  // masked on the wire
        #expect(String(buffer: pong.unmaskedData) == "abc")
        _ = try channel.finish()
    }

    @Test("a text message in 3 fragments is delivered once, whole, stamped at the first fragment")
    func fragmentedText() throws {
        let (channel, recorder) = try makeChannel()
        let beforeFirst = MonotonicInstant.now()
        try channel.writeInbound(frame(.text, "Hel", fin: false))
        let afterFirst = MonotonicInstant.now()
        #expect(recorder.frames.isEmpty)
        try channel.writeInbound(frame(.continuation, "lo, ", fin: false))
        try channel.writeInbound(frame(.continuation, "world", fin: true))

        let frames = recorder.frames
        #expect(frames.count == 1)
        let message = try #require(frames.first)
        #expect(message.frame == .text("Hello, world"))
        #expect(message.receivedAt >= beforeFirst)
        #expect(message.receivedAt <= afterFirst)
        _ = try channel.finish()
    }

    @Test("a binary frame is delivered as bytes")
    func binaryFrame() throws {
        let (channel, recorder) = try makeChannel()
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: [0, 1, 2, 255])))
        #expect(recorder.frames.map(\.frame) == [.binary([0, 1, 2, 255])])
        _ = try channel.finish()
    }

    @Test("a masked frame off the wire is unmasked")
    func maskedInbound() throws {
        let recorder = WebSocketEventRecorder()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 16)),
            WebSocketFrameHandler(role: .server, maxMessageBytes: 1 << 16, onEvent: recorder.handler),
        ])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()

        // Encode a masked client frame to bytes with NIO's encoder, then feed the bytes.
        let encoder = EmbeddedChannel(handler: WebSocketFrameEncoder())
        let key: WebSocketMaskingKey = [0x37, 0xFA, 0x21, 0x3D]
        try encoder.writeOutbound(WebSocketFrame(fin: true, opcode: .text, maskKey: key, data: ByteBuffer(string: "Hello")))
        var wire = ByteBuffer()
        while var part = try encoder.readOutbound(as: ByteBuffer.self) {
            wire.writeBuffer(&part)
        }
        #expect(wire.readableBytesView.contains(UInt8(ascii: "H")) == false)  // really masked on the wire

        try channel.writeInbound(wire)
        #expect(recorder.frames.map(\.frame) == [.text("Hello")])
        _ = try channel.finish()
        _ = try encoder.finish()
    }

    @Test("a close frame's code and reason are captured and the close is echoed")
    func closeFrameCaptured() throws {
        let (channel, recorder) = try makeChannel()
        try channel.writeInbound(closeFrame(code: 4001, reason: "session over"))

        #expect(recorder.closes.count == 1)
        #expect(recorder.closes.first?.code == 4001)
        #expect(recorder.closes.first?.reason == "session over")
        let echo = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(echo.opcode == .connectionClose)
        var payload = echo.data
        #expect(payload.readInteger(as: UInt16.self) == 4001)
        #expect(channel.isActive == false)
        #expect(recorder.closes.count == 1)  // the TCP close that follows is not reported again
    }

    @Test("a TCP close without a close frame reports .closed with no code, once")
    func tcpCloseWithoutCloseFrame() throws {
        let (channel, recorder) = try makeChannel()
        try channel.writeInbound(frame(.text, "last words"))
        try channel.close().wait()
        #expect(recorder.frames.count == 1)
        #expect(recorder.closes.count == 1)
        #expect(recorder.closes.first?.code == nil)
    }

    @Test("a protocol violation reports .failed, sends close 1002, and reports .closed once")
    func protocolViolation() throws {
        let (channel, recorder) = try makeChannel()
        try channel.writeInbound(frame(.continuation, "orphan"))
        #expect(recorder.failures.map(\.kind) == [.protocolViolation])
        let close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(close.opcode == .connectionClose)
        var payload = close.data
        #expect(payload.readInteger(as: UInt16.self) == 1002)
        #expect(channel.isActive == false)
        #expect(recorder.closes.count == 1)
    }

    @Test("a local close sends a close frame and ends when the peer answers")
    func localCloseHandshake() throws {
        let recorder = WebSocketEventRecorder()
        let handler = WebSocketFrameHandler(role: .client, maxMessageBytes: 1 << 16, onEvent: recorder.handler)
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()

        handler.close(code: 1000, reason: "done")
        #expect(handler.isOpen == false)
        let sent = try #require(try clientFrame(from: channel))
        #expect(sent.opcode == .connectionClose)
        #expect(sent.maskKey != nil)
        var payload = sent.unmaskedData
        #expect(payload.readInteger(as: UInt16.self) == 1000)
        #expect(payload.readString(length: payload.readableBytes) == "done")

        handler.send(EncodedFrame(.text("too late")))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)

        try channel.writeInbound(closeFrame(code: 1000, reason: ""))
        #expect(channel.isActive == false)
        #expect(recorder.closes.count == 1)
        #expect(recorder.closes.first?.code == 1000)
        #expect(recorder.closes.first?.reason == nil)
    }

    @Test("queued messages stay until a flush, then leave in order; a close frame follows those queued before it")
    func queuedMessagesLeaveOnFlush() throws {
        let handler = WebSocketFrameHandler(role: .server, maxMessageBytes: 1 << 16, onEvent: WebSocketEventRecorder().handler)
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()

        handler.queue(EncodedFrame(.text("first")))
        handler.queue(EncodedFrame(.binary([1, 2, 3])))
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil)
        handler.flush()
        let first = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        let second = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil)
        #expect(first.opcode == .text && first.fin && String(buffer: first.data) == "first")
        #expect(second.opcode == .binary && second.fin && Array(buffer: second.data) == [1, 2, 3])

        handler.queue(EncodedFrame(.text("last words")))
        handler.close(code: 1000, reason: "")
        let queued = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        let close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(queued.opcode == .text && String(buffer: queued.data) == "last words")
        #expect(close.opcode == .connectionClose)
        handler.queue(EncodedFrame(.text("too late")))
        handler.flush()
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil)
    }

    @Test("events before the handler is installed are buffered and delivered in order")
    func bufferedUntilHandlerSet() throws {
        let handler = WebSocketFrameHandler(role: .server, maxMessageBytes: 1 << 16, onEvent: nil)
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        try channel.writeInbound(frame(.text, "one"))
        try channel.writeInbound(frame(.text, "two"))

        let recorder = WebSocketEventRecorder()
        handler.setEventHandler(recorder.handler)
        try channel.writeInbound(frame(.text, "three"))
        #expect(recorder.frames.map(\.frame) == [.text("one"), .text("two"), .text("three")])
        _ = try channel.finish()
    }

    @Test("a message over the size limit fails with close 1009")
    func oversizedMessage() throws {
        let recorder = WebSocketEventRecorder()
        let handler = WebSocketFrameHandler(role: .server, maxMessageBytes: 8, onEvent: recorder.handler)
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        try channel.writeInbound(frame(.binary, "12345", fin: false))
        try channel.writeInbound(frame(.continuation, "67890", fin: true))
        #expect(recorder.frames.isEmpty)
        #expect(recorder.failures.map(\.kind) == [.frameTooLarge])
        let close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        var payload = close.data
        #expect(payload.readInteger(as: UInt16.self) == 1009)
        #expect(recorder.closes.count == 1)
    }

    @Test("a single frame over the decoder's limit fails as frameTooLarge with close 1009")
    func oversizedFrameFromDecoder() throws {
        let recorder = WebSocketEventRecorder()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 256)),
            WebSocketFrameHandler(role: .client, maxMessageBytes: 256, onEvent: recorder.handler),
        ])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        // A server frame header announcing 1000 bytes: the decoder refuses it before reading them.
        var wire = ByteBuffer(bytes: [0x82, 126])
        wire.writeInteger(UInt16(1_000))
        wire.writeBytes([UInt8](repeating: 1, count: 16))
        _ = try? channel.writeInbound(wire)
        #expect(recorder.frames.isEmpty)
        #expect(recorder.failures == [WebSocketFailure(.frameTooLarge, "frame larger than the 256-byte limit")])
        #expect(recorder.closes.count == 1)
    }

    @Test("an I/O error fails the connection as io, without a close frame")
    func ioError() throws {
        let (channel, recorder) = try makeChannel(role: .client)
        channel.pipeline.fireErrorCaught(IOError(errnoCode: 104, reason: "read"))
        #expect(recorder.failures.map(\.kind) == [.io])
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        #expect(recorder.closes.count == 1)
    }
}
