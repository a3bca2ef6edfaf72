import NIOCore
import NIOPosix
import RTP
import Testing

@testable import WebRTC

/// The channel handler over real UDP sockets on 127.0.0.1 against an ICE-lite peer that is the
/// DTLS server (`a=setup:passive`): the half the live aiortc test does not reach, where vload
/// only checks, is never checked, and starts the handshake itself; and, as the DTLS client,
/// opens its data channel on an even stream (RFC 8832 §6) and gets its texts echoed.
@Suite("WebRTC channel handler against an ICE-lite peer")
struct WebRTCChannelHandlerTests {
    static let packetCount = 5
    static let peerUfrag = "litePeer"
    static let peerPassword = "litePeerPassword0123456789"
    static let texts = ["one", "two", ""]

    /// The peer: answers Binding requests signed with its password, takes the DTLS server role,
    /// counts the SRTP it receives, and once connected sends `packetCount` packets back.
    final class LitePeer: ChannelInboundHandler {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        typealias OutboundOut = AddressedEnvelope<ByteBuffer>

        let dtls: DTLSEndpoint
        let received: EventLoopPromise<[RTPPacket]>
        /// The stream of the first DATA_CHANNEL_OPEN the peer gets.
        let channelOpened: EventLoopPromise<UInt16>
        var packets: [RTPPacket] = []
        var inbound: SRTPSession?
        var finished = false
        var context: ChannelHandlerContext?
        var remote: SocketAddress?
        var sctp: SCTPAssociation?

        init(dtls: DTLSEndpoint, received: EventLoopPromise<[RTPPacket]>, channelOpened: EventLoopPromise<UInt16>) {
            self.dtls = dtls
            self.received = received
            self.channelOpened = channelOpened
        }

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }
        func handlerRemoved(context: ChannelHandlerContext) { sctp?.close() }

        /// The peer's side of the data channel: ACKs an OPEN, echoes every text on its stream.
        private func handle(sctp event: SCTPEvent) {
            guard case .message(let streamID, let ppid, let bytes, _) = event else { return }
            if ppid == DataChannelPPID.dcep.rawValue, let message = try? DCEPMessage(parsing: bytes), case .open = message {
                _ = try? sctp?.send(DCEPMessage.ack.serialized, streamID: streamID, ppid: ppid)
                channelOpened.succeed(streamID)
            } else {
                _ = try? sctp?.send(bytes, streamID: streamID, ppid: ppid)
            }
        }

        private func sendSCTP(_ packet: [UInt8]) {
            guard let context, let remote else { return }
            for datagram in dtls.write(applicationData: packet).datagrams { send(datagram, to: remote, context: context) }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let envelope = unwrapInboundIn(data)
            let bytes = Array(envelope.data.readableBytesView)
            let key = Array(WebRTCChannelHandlerTests.peerPassword.utf8)
            switch bytes.first ?? 0xFF {
            case 0...3:
                guard let request = try? STUNMessage(parsing: bytes, integrityKey: key), request.type == .bindingRequest,
                    let source = envelope.remoteAddress.ipAddress.flatMap({ STUNAddress(ipv4: $0, port: UInt16(envelope.remoteAddress.port!)) })
                else { return }
                let success = STUNMessage(type: .bindingSuccess, transactionID: request.transactionID, attributes: [.xorMappedAddress(source)])
                send(success.serialized(integrityKey: key, fingerprint: true), to: envelope.remoteAddress, context: context)
            case 20...63:
                let output = dtls.receive(bytes)
                for datagram in output.datagrams { send(datagram, to: envelope.remoteAddress, context: context) }
                for packet in output.applicationData { sctp?.receive(packet) }
                if let keys = output.connected {
                    remote = envelope.remoteAddress
                    sctp = try? SCTPAssociation(
                        eventLoop: context.eventLoop, remotePort: SCTPAssociation.defaultPort,
                        onPacket: { [unowned self] in self.sendSCTP($0) }, onEvent: { [unowned self] in self.handle(sctp: $0) })
                    inbound = try? SRTPSession(keys: keys, direction: .inbound)
                    guard let outbound = try? SRTPSession(keys: keys, direction: .outbound) else { return }
                    var packetizer = RTPPacketizer(payloadType: 111, ssrc: 0xFEED, firstSequenceNumber: 65_534, firstTimestamp: 0)
                    for index in 0..<WebRTCChannelHandlerTests.packetCount {
                        let packet = packetizer.packet(payload: [0xF8, UInt8(index)], timestampStepSamples: 960)
                        if let protected = try? outbound.protect(packet.serialized()) { send(protected, to: envelope.remoteAddress, context: context) }
                    }
                }
            default:
                guard let inbound, let plain = try? inbound.unprotect(bytes), let packet = try? RTPPacket(parsing: plain) else { return }
                packets.append(packet)
                if packets.count == WebRTCChannelHandlerTests.packetCount && !finished {
                    finished = true
                    received.succeed(packets)
                }
            }
        }

        /// Bounds the test in time should a datagram go missing; no latency is asserted.
        func giveUp() {
            channelOpened.fail(ChannelError.ioOnClosedChannel)
            guard !finished else { return }
            finished = true
            received.fail(ChannelError.ioOnClosedChannel)
        }

        private func send(_ bytes: [UInt8], to address: SocketAddress, context: ChannelHandlerContext) {
            let envelope = AddressedEnvelope(remoteAddress: address, data: context.channel.allocator.buffer(bytes: bytes))
            context.writeAndFlush(wrapOutboundOut(envelope), promise: nil)
        }
    }

    /// vload's side: on `connected` it sends `packetCount` packets; it collects the peer's.
    final class Caller {
        var handler: WebRTCChannelHandler!
        let connected: EventLoopPromise<Double>
        let received: EventLoopPromise<[RTPPacket]>
        let echoed: EventLoopPromise<[String]>
        var packets: [RTPPacket] = []
        var echoes: [String] = []
        var connectedDone = false
        var receivedDone = false

        init(
            local: WebRTCLocalSide, connected: EventLoopPromise<Double>, received: EventLoopPromise<[RTPPacket]>,
            echoed: EventLoopPromise<[String]>
        ) {
            self.connected = connected
            self.received = received
            self.echoed = echoed
            handler = WebRTCChannelHandler(local: local) { [unowned self] in self.handle($0) }
        }

        private func handle(_ event: WebRTCTransportEvent) {
            switch event {
            case .connected(let iceMs, let dtlsMs, _):
                var packetizer = RTPPacketizer(payloadType: 111, ssrc: 0xCA11, firstSequenceNumber: 100, firstTimestamp: 7)
                for index in 0..<WebRTCChannelHandlerTests.packetCount {
                    handler.send(packetizer.packet(payload: [0x78, UInt8(index)], timestampStepSamples: 960))
                }
                connectedDone = true
                connected.succeed(min(iceMs, dtlsMs))
            case .rtp(let packet, _):
                packets.append(packet)
                if packets.count == WebRTCChannelHandlerTests.packetCount && !receivedDone {
                    receivedDone = true
                    received.succeed(packets)
                }
            case .dataChannelOpen:
                for text in WebRTCChannelHandlerTests.texts { handler.send(text: text) }
            case .dataChannelText(let text, _):
                echoes.append(text)
                if echoes.count == WebRTCChannelHandlerTests.texts.count { echoed.succeed(echoes) }
            case .dataChannelBinary:
                break
            case .hungUp(let hangUp):
                giveUp(WebRTCTransportFailure.channel(hangUp.description))
            case .failed(let failure):
                giveUp(failure)
            }
        }

        /// Fails what has not happened yet: on a transport failure, or when the test's time is up.
        func giveUp(_ error: any Error = ChannelError.ioOnClosedChannel) {
            echoed.fail(error)
            if !connectedDone {
                connectedDone = true
                connected.fail(error)
            }
            if !receivedDone {
                receivedDone = true
                received.fail(error)
            }
        }
    }

    @Test("ICE-lite answer, vload the DTLS client: connects, exchanges SRTP both ways and opens its data channel on stream 0")
    func connectsToLitePeer() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let vloadIdentity = try DTLSIdentity()
        let peerIdentity = try DTLSIdentity()
        var generator = SystemRandomNumberGenerator()
        let local = WebRTCLocalSide(identity: vloadIdentity, generator: &generator)
        let peerReceived = loop.makePromise(of: [RTPPacket].self)
        let callerConnected = loop.makePromise(of: Double.self)
        let callerReceived = loop.makePromise(of: [RTPPacket].self)
        let answerPromise = loop.makePromise(of: SDPAnswer.self)
        let channelOpened = loop.makePromise(of: UInt16.self)
        let echoed = loop.makePromise(of: [String].self)

        let peer = try await DatagramBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let dtls = try DTLSEndpoint(identity: peerIdentity, role: .server, expectedFingerprint: vloadIdentity.fingerprint)
                    let peer = LitePeer(dtls: dtls, received: peerReceived, channelOpened: channelOpened)
                    try channel.pipeline.syncOperations.addHandler(peer)
                    // Bounds the test in time should a datagram go missing (no latency is asserted),
                    // from the answer on, when the loop alone drives the call; shutting the loop down
                    // cancels it.
                    let bound = NIOLoopBound(peer, eventLoop: channel.eventLoop)
                    answerPromise.futureResult.whenSuccess { _ in
                        channel.eventLoop.scheduleTask(in: .seconds(20)) { bound.value.giveUp() }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let caller = try await DatagramBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let caller = Caller(local: local, connected: callerConnected, received: callerReceived, echoed: echoed)
                    try channel.pipeline.syncOperations.addHandler(caller.handler)
                    let bound = NIOLoopBound(caller, eventLoop: channel.eventLoop)
                    answerPromise.futureResult.whenSuccess {
                        bound.value.handler.connect(answer: $0, dataChannel: DataChannelOpen(label: "lite"))
                        channel.eventLoop.scheduleTask(in: .seconds(20)) { bound.value.giveUp() }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()

        let peerPort = try #require(peer.localAddress?.port)
        let answer = try SDPAnswer(
            parsing: [
                "v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=ice-lite", "m=audio \(peerPort) UDP/TLS/RTP/SAVPF 111",
                "a=rtpmap:111 opus/48000/2", "a=ice-ufrag:\(Self.peerUfrag)", "a=ice-pwd:\(Self.peerPassword)",
                "a=candidate:1 1 udp 2130706431 127.0.0.1 \(peerPort) typ host", "a=fingerprint:\(peerIdentity.fingerprint.attributeValue)",
                "a=setup:passive", "m=application \(peerPort) UDP/DTLS/SCTP webrtc-datachannel", "a=sctp-port:5000",
            ].joined(separator: "\r\n"))
        #expect(answer.iceLite && answer.setup == .passive)
        answerPromise.succeed(answer)

        let firstPhaseMs = try await callerConnected.futureResult.get()
        let atPeer = try await peerReceived.futureResult.get()
        let atCaller = try await callerReceived.futureResult.get()
        #expect(firstPhaseMs > 0)
        #expect(atPeer.map(\.payload) == (0..<Self.packetCount).map { [0x78, UInt8($0)] })
        #expect(atPeer.map(\.header.sequenceNumber) == Array(100..<100 + UInt16(Self.packetCount)))
        #expect(atCaller.map(\.payload) == (0..<Self.packetCount).map { [0xF8, UInt8($0)] })
        #expect(atCaller.map(\.header.sequenceNumber) == [65_534, 65_535, 0, 1, 2])
        #expect(try await channelOpened.futureResult.get() == 0)
        #expect(try await echoed.futureResult.get() == Self.texts)
        try await caller.close().get()
        try await peer.close().get()
        try await group.shutdownGracefully()
    }
}
