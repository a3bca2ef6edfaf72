import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
import WSCore

@testable import WSServer

/// A WebSocket server's frames are stamped as they are read and handed to the server once the
/// loop's turn has stamped every read (`WebSocketServerConnection`): with callers in step, a
/// frame's stamp must not wait for the handling of the frames read before it.
@Suite("WebSocket server: frames handled after the loop's reads")
struct ServerDeliveryAfterReadsTests {
    @Test("two connections' frames read in one turn are both stamped before either is handled, then handled in order")
    func stampedThenHandled() throws {
        let loop = EmbeddedEventLoop()
        let recorder = WebSocketEventRecorder()
        var channels: [EmbeddedChannel] = []
        for _ in 0..<2 {
            let channel = EmbeddedChannel(loop: loop)
            let frameHandler = WebSocketFrameHandler(role: .server, maxMessageBytes: 1 << 20, onEvent: nil)
            try channel.pipeline.syncOperations.addHandler(frameHandler)
            let connection = WebSocketServerConnection(
                channel: channel, handler: FrameHandlerReference(frameHandler, eventLoop: loop),
                request: WebSocketUpgradeRequest(target: "/", headers: []), subprotocol: nil)
            connection.setEventHandler(recorder.handler)
            channels.append(channel)
        }
        loop.run()  // the handlers installed
        for (index, channel) in channels.enumerated() {
            channel.pipeline.fireChannelRead(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "frame \(index)")))
        }
        // Read and stamped, not yet handled: the server's work waits for the turn's reads.
        #expect(recorder.events.isEmpty)
        loop.run()
        let frames = recorder.frames
        #expect(frames.map(\.frame) == [.text("frame 0"), .text("frame 1")])
        #expect(frames.count == 2 && frames[0].receivedAt <= frames[1].receivedAt)
        for channel in channels { _ = try? channel.finish() }
    }
}
