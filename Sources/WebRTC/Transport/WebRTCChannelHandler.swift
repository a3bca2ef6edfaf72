import NIOCore
import RTP

/// The thin I/O of one WebRTC session on a UDP channel: it sorts each datagram by its first byte
/// (RFC 7983) to the ICE agent, the DTLS endpoint or SRTP, sends what they return, runs their
/// one timer, and reports the connect phases and the peer's RTP; with a data channel, DTLS's
/// application data goes to SCTP (`WebRTCDataChannelLink`). Closing the channel hangs up first
/// (`close(context:mode:promise:)`); the peer's hang-up is reported as `hungUp`. Used on its
/// channel's event loop.
package final class WebRTCChannelHandler: ChannelDuplexHandler, WebRTCMediaReceiver {
    package typealias InboundIn = AddressedEnvelope<ByteBuffer>
    package typealias OutboundIn = AddressedEnvelope<ByteBuffer>
    package typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private let local: WebRTCLocalSide
    let onEvent: (WebRTCTransportEvent) -> Void
    private var context: ChannelHandlerContext?
    private var ice: ICEAgent?
    private var dtls: DTLSEndpoint?
    private var dtlsStartNanoseconds: UInt64?
    private var iceMs: Double?
    private(set) var remote: SocketAddress?
    private(set) var media: WebRTCMedia?
    private var timer: Scheduled<Void>?
    private var timerDeadlineNanoseconds: UInt64?
    private var dataChannelLink: WebRTCDataChannelLink?
    private(set) var finished = false
    package internal(set) var counters = WebRTCTransportCounters()

    package init(local: WebRTCLocalSide, onEvent: @escaping (WebRTCTransportEvent) -> Void) {
        self.local = local
        self.onEvent = onEvent
    }

    /// The channel's event loop, once the handler is in a pipeline.
    package var eventLoop: (any EventLoop)? { context?.eventLoop }

    package func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    package func handlerRemoved(context: ChannelHandlerContext) {
        // Finished first: closing the link writes its ABORT, which must not schedule a new timer.
        let wasFinished = finished
        finished = true
        if !wasFinished { dataChannelLink?.close() }
        timer?.cancel()
        self.context = nil
    }

    /// Takes the answer: the DTLS role it gives (vload is the client when the answerer is
    /// passive), then ICE's first checks. With `dataChannel` (the offer had its section), the
    /// channel is opened once DTLS is done; an answer without the section fails the session.
    package func connect(answer: SDPAnswer, dataChannel: DataChannelOpen? = nil) {
        do {
            let role: DTLSEndpoint.Role = answer.setup == .passive ? .client : .server
            dtls = try DTLSEndpoint(identity: local.identity, role: role, expectedFingerprint: answer.fingerprint)
        } catch {
            return finish(.dtls(error))
        }
        if let dataChannel {
            guard let sctpPort = answer.sctpPort else { return finish(.sctp("the SDP answer has no data channel section")) }
            dataChannelLink = WebRTCDataChannelLink(
                channel: DataChannel(open: dataChannel, isDTLSClient: answer.setup == .passive), remotePort: sctpPort,
                writeApplicationData: { [unowned self] in self.writeApplicationData($0) },
                onEvent: { [unowned self] in self.onEvent($0) }, onFailure: { [unowned self] in self.finish($0) },
                onHangUp: { [unowned self] in self.peerHungUp($0) })
        }
        ice = ICEAgent(configuration: local.iceConfiguration(answer: answer))
        handle(ice: ice!.start(nowUs: Self.nowUs()))
    }

    /// Protects and sends the caller's packet on the selected pair; false before DTLS is done.
    @discardableResult
    package func send(_ packet: RTPPacket) -> Bool {
        guard !finished, let media, let remote, let context else { return false }
        do {
            write(try media.outbound.protect(packet.serialized()), to: remote, context: context)
            counters.rtpSent += 1
            return true
        } catch {
            finish(.srtp(error))
            return false
        }
    }

    /// Sends a text message on the data channel; false before it was opened or without one.
    @discardableResult
    package func send(text: String) -> Bool {
        guard !finished, let dataChannelLink else { return false }
        return dataChannelLink.send(text: text)
    }

    /// The consent checks sent on the selected pair and those answered (RFC 7675).
    package var consentChecks: (sent: Int, answered: Int) { (ice?.consentChecksSent ?? 0, ice?.consentChecksAnswered ?? 0) }

    /// The peer's data channel messages vload did not use (another stream's, unknown PPIDs).
    package var dataChannelIgnoredMessages: Int { dataChannelLink?.ignoredMessages ?? 0 }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let bytes = Array(envelope.data.readableBytesView)
        guard let first = bytes.first, !finished else { return }
        switch first {
        case 0...3:
            counters.stunReceived += 1
            guard let source = STUNAddress(envelope.remoteAddress), ice != nil else { return }
            handle(ice: ice!.receive(bytes, from: source, nowUs: Self.nowUs()))
        case 20...63:
            counters.dtlsReceived += 1
            receiveDTLS(bytes, from: envelope.remoteAddress)
        case 128...191:
            readMedia(bytes, from: envelope.remoteAddress, on: context.eventLoop)
        default:
            counters.otherReceived += 1
        }
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.channel("\(error)"))
    }

    /// Hangs up before the socket closes, as aiortc's `RTCPeerConnection.close()` does: the data
    /// channel's SCTP ABORT, then DTLS's close_notify, both written before the close goes on.
    package func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all {
            if !finished { dataChannelLink?.close() }
            if let dtls, let remote {
                for datagram in dtls.shutdown().datagrams { write(datagram, to: remote, context: context) }
            }
            finished = true
            timer?.cancel()
        }
        context.close(mode: mode, promise: promise)
    }

    private func handle(ice actions: [ICEAction]) {
        guard let context else { return }
        for action in actions {
            switch action {
            case .send(let bytes, let address):
                guard let destination = try? SocketAddress(ipAddress: address.host, port: Int(address.port)) else { continue }
                write(bytes, to: destination, context: context)
            case .selected(let address, let iceMs):
                self.iceMs = iceMs
                remote = try? SocketAddress(ipAddress: address.host, port: Int(address.port))
                if let dtls, dtls.role == .client, dtlsStartNanoseconds == nil {
                    dtlsStartNanoseconds = Self.nowNanoseconds()
                    handle(dtls: dtls.start())
                }
                completeIfConnected()
            case .failed(let failure):
                finish(.ice(failure))
            }
        }
        rescheduleTimer()
    }

    private func receiveDTLS(_ bytes: [UInt8], from source: SocketAddress) {
        guard let dtls else { return }
        if dtlsStartNanoseconds == nil { dtlsStartNanoseconds = Self.nowNanoseconds() }
        // A server answers the address its ClientHello came from until ICE selects a pair.
        if remote == nil { remote = source }
        handle(dtls: dtls.receive(bytes))
    }

    private func handle(dtls output: DTLSEndpoint.Output) {
        if let context, let remote {
            for datagram in output.datagrams { write(datagram, to: remote, context: context) }
        }
        if let failure = output.failure { return finish(.dtls(failure)) }
        if let keys = output.connected {
            do {
                media = try WebRTCMedia(keys: keys)
            } catch {
                return finish(.srtp(error))
            }
            completeIfConnected()
            if let context { dataChannelLink?.start(eventLoop: context.eventLoop, nowNanoseconds: Self.nowNanoseconds()) }
        }
        for packet in output.applicationData { dataChannelLink?.receive(packet) }
        if output.peerClosed { return peerHungUp(.dtlsCloseNotify) }
        rescheduleTimer()
    }

    /// One of SCTP's packets, as a DTLS record to the selected pair.
    private func writeApplicationData(_ packet: [UInt8]) {
        guard let dtls, !finished else { return }
        handle(dtls: dtls.write(applicationData: packet))
    }

    private var dtlsMs: Double?

    private func completeIfConnected() {
        guard dtlsMs == nil, let iceMs, let media, let dtlsStartNanoseconds else { return }
        let dtlsMs = Double(Self.nowNanoseconds() - dtlsStartNanoseconds) / 1_000_000
        self.dtlsMs = dtlsMs
        onEvent(.connected(iceMs: iceMs, dtlsMs: dtlsMs, srtpProfile: media.profile))
    }

    private func write(_ bytes: [UInt8], to destination: SocketAddress, context: ChannelHandlerContext) {
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(wrapOutboundOut(AddressedEnvelope(remoteAddress: destination, data: buffer)), promise: nil)
    }

    private func rescheduleTimer() {
        guard let context, !finished else {
            timer?.cancel()
            timer = nil
            return
        }
        var deadlines: [UInt64] = []
        if let deadline = ice?.nextDeadlineUs { deadlines.append(deadline * 1_000) }
        if let dtls, let timeoutUs = dtls.timeoutUs { deadlines.append(Self.nowNanoseconds() + UInt64(timeoutUs) * 1_000) }
        let next = deadlines.min()
        // A call keeps one timer for consent (every ~5 s): a data channel message that leaves
        // the deadline as it was leaves the timer too.
        if timer != nil, next == timerDeadlineNanoseconds { return }
        timer?.cancel()
        timer = nil
        timerDeadlineNanoseconds = next
        guard let next else { return }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: .uptimeNanoseconds(next)) { loopBound.value.timerFired() }
    }

    private func timerFired() {
        timer = nil
        timerDeadlineNanoseconds = nil
        if ice != nil { handle(ice: ice!.timerFired(nowUs: Self.nowUs())) }
        if let dtls, dtls.timeoutUs == 0 { handle(dtls: dtls.timerFired()) }
        rescheduleTimer()
    }

    private func finish(_ failure: WebRTCTransportFailure) { end(.failed(failure)) }

    /// The peer hung up: the call ends now, with nothing sent back but the close_notify that
    /// closing the channel sends.
    private func peerHungUp(_ hangUp: WebRTCHangUp) { end(.hungUp(hangUp)) }

    /// Ends the call once, with its last event (`failed` or `hungUp`).
    private func end(_ event: WebRTCTransportEvent) {
        guard !finished else { return }
        finished = true
        timer?.cancel()
        dataChannelLink?.close()
        onEvent(event)
    }

    /// vload's one monotonic clock: NIODeadline's (CLOCK_MONOTONIC), as WSCore's `MonotonicInstant`.
    private static func nowNanoseconds() -> UInt64 { NIODeadline.now().uptimeNanoseconds }

    private static func nowUs() -> UInt64 { nowNanoseconds() / 1_000 }
}
