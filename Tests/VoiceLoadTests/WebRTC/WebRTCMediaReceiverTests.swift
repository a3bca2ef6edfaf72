import NIOCore
import NIOEmbedded
import RTP
import Testing

@testable import WebRTC

/// Both WebRTC handlers stamp an RTP datagram as they read it and handle it (SRTP, the counts,
/// the `rtp` event) in a task on the loop, once the turn has stamped every read
/// (`WebRTCMediaReceiver`; docs/webrtc.md, "When a packet arrived").
@Suite("WebRTC handlers: media handled after the loop's reads")
struct WebRTCMediaReceiverTests {
    static let source = try! SocketAddress(ipAddress: "127.0.0.1", port: 40_000)

    static func rtpDatagram() -> AddressedEnvelope<ByteBuffer> {
        var packetizer = RTPPacketizer(payloadType: 111, ssrc: 0xCA11, firstSequenceNumber: 1, firstTimestamp: 0)
        let bytes = packetizer.packet(payload: [0xF8, 0xFF, 0xFE], timestampStepSamples: 960).serialized()
        return AddressedEnvelope(remoteAddress: source, data: ByteBuffer(bytes: bytes))
    }

    @Test("the caller's and the answerer's handlers, on one loop: both packets read before either is handled")
    func handledAfterReads() throws {
        let loop = EmbeddedEventLoop()
        var generator = SystemRandomNumberGenerator()
        let local = WebRTCLocalSide(identity: try DTLSIdentity(), generator: &generator)
        let offer = try SDPReceivedOffer(parsing: local.offer(port: 5_000, ssrc: 1, sessionID: 1).text)
        let caller = WebRTCChannelHandler(local: local) { _ in }
        let answerer = try WebRTCAnswerHandler(
            offer: offer, localUfrag: "simUfrag", localPassword: "simPassword0123456789abc", identity: try DTLSIdentity()
        ) { _ in }
        let callerChannel = EmbeddedChannel(handler: caller, loop: loop)
        let answererChannel = EmbeddedChannel(handler: answerer, loop: loop)
        callerChannel.pipeline.fireChannelRead(Self.rtpDatagram())
        answererChannel.pipeline.fireChannelRead(Self.rtpDatagram())
        // Read (stamped), not handled yet.
        #expect(caller.counters == WebRTCTransportCounters())
        #expect(answerer.counters == WebRTCTransportCounters())
        loop.run()
        // Handled: with no call connected yet, neither is the call's media.
        #expect(caller.counters.otherReceived == 1 && caller.counters.rtpReceived == 0)
        #expect(answerer.counters.otherReceived == 1 && answerer.counters.rtpReceived == 0)
        _ = try? callerChannel.finish()
        _ = try? answererChannel.finish()
    }
}
