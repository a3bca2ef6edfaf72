import NIOCore
import RTP

/// The thin I/O of one answered WebRTC session on its own UDP socket: the ICE-lite side of a
/// server (the built-in simulator's). It answers the caller's checks (`ICELiteResponder`), runs
/// DTLS in the role its answer took, protects and unprotects SRTP, and accepts the caller's data
/// channel (`AcceptedDataChannel` through `WebRTCDataChannelLink`). It reports the same events as
/// the caller's `WebRTCChannelHandler`: `connected` once the caller nominated a pair and DTLS is
/// done, the caller's RTP with its arrival, the channel's open and messages, then one `hungUp`
/// (the caller's close_notify or SCTP ABORT) or one `failed`. Closing the channel hangs up as
/// the caller's handler does. Used on its channel's event loop.
package final class WebRTCAnswerHandler: ChannelDuplexHandler, WebRTCMediaReceiver {
    package typealias InboundIn = AddressedEnvelope<ByteBuffer>
    package typealias OutboundIn = AddressedEnvelope<ByteBuffer>
    package typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    /// How long the caller has from the handler's start to a nominated pair and a finished
    /// handshake (ICE's own bound on vload's side, `ICEAgentConfiguration.timeoutUs`).
    package static let connectTimeoutMs: Int64 = 10_000
    /// How long a connected caller may send nothing before the session is over: a WebRTC caller
    /// streams audio all the time (silence too). A caller that hangs up says so (`hungUp`); this
    /// bound is for one that vanishes without a word (killed, or its goodbye lost). RFC 7675's
    /// consent expires after 30 s; a load test's caller that is silent for this long is gone.
    package static let idleTimeoutMs: Int64 = 3_000

    private var ice: ICELiteResponder
    private let dtls: DTLSEndpoint
    let onEvent: (WebRTCTransportEvent) -> Void
    private var context: ChannelHandlerContext?
    private var dataChannelLink: WebRTCDataChannelLink?
    private(set) var remote: SocketAddress?
    private(set) var media: WebRTCMedia?
    private var firstCheckNanoseconds: UInt64?
    private var iceMs: Double?
    private var dtlsStartNanoseconds: UInt64?
    private var dtlsMs: Double?
    private var timer: Scheduled<Void>?
    private var connectDeadline: Scheduled<Void>?
    private(set) var finished = false
    private var lastReceiveNanoseconds: UInt64 = 0
    private var idleCheck: RepeatedTask?
    package internal(set) var counters = WebRTCTransportCounters()

    /// The answerer for `offer`, with the ICE credentials its answer gave and the server's
    /// identity; the DTLS role is the answer's (`SDPReceivedOffer.answererSetup`).
    package init(
        offer: SDPReceivedOffer, localUfrag: String, localPassword: String, identity: DTLSIdentity,
        onEvent: @escaping (WebRTCTransportEvent) -> Void
    ) throws(DTLSFailure) {
        ice = ICELiteResponder(localUfrag: localUfrag, localPassword: localPassword, remoteUfrag: offer.iceUfrag)
        let role: DTLSEndpoint.Role = offer.answererSetup == .passive ? .server : .client
        dtls = try DTLSEndpoint(identity: identity, role: role, expectedFingerprint: offer.fingerprint)
        self.onEvent = onEvent
        if let section = offer.dataChannel {
            dataChannelLink = WebRTCDataChannelLink(
                channel: AcceptedDataChannel(), remotePort: section.sctpPort,
                writeApplicationData: { [unowned self] in self.writeApplicationData($0) },
                onEvent: { [unowned self] in self.onEvent($0) }, onFailure: { [unowned self] in self.finish($0) },
                onHangUp: { [unowned self] in self.callerHungUp($0) })
        }
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        connectDeadline = context.eventLoop.scheduleTask(in: .milliseconds(Self.connectTimeoutMs)) {
            guard loopBound.value.dtlsMs == nil else { return }
            loopBound.value.finish(.ice(.timedOut(afterMs: Double(Self.connectTimeoutMs))))
        }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        // Finished first: closing the link writes its ABORT, which must not schedule a new timer.
        let wasFinished = finished
        finished = true
        if !wasFinished { dataChannelLink?.close() }
        idleCheck?.cancel()
        timer?.cancel()
        connectDeadline?.cancel()
        self.context = nil
    }

    /// Protects and sends one RTP packet to the caller; false before DTLS is done.
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

    /// Sends a text message on the channel the caller opened; false before it opened one.
    @discardableResult
    package func send(text: String) -> Bool {
        guard !finished, let dataChannelLink else { return false }
        return dataChannelLink.send(text: text)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let bytes = Array(envelope.data.readableBytesView)
        guard let first = bytes.first, !finished else { return }
        lastReceiveNanoseconds = Self.nowNanoseconds()
        switch first {
        case 0...3:
            counters.stunReceived += 1
            receiveSTUN(bytes, from: envelope.remoteAddress, context: context)
        case 20...63:
            counters.dtlsReceived += 1
            // The handshake comes from the nominated pair; a ClientHello may overtake the
            // nominating check's response, so the first one from a source whose check was
            // answered names the pair until ICE does.
            // A record from anywhere else is dropped, such as one from the peer of a call that has
            // ended and still sends to the port the kernel has since given this call.
            if remote == nil {
                guard let source = STUNAddress(envelope.remoteAddress), ice.hasAnswered(source) else { return counters.otherReceived += 1 }
                remote = envelope.remoteAddress
            }
            guard envelope.remoteAddress == remote else { return counters.otherReceived += 1 }
            if dtlsStartNanoseconds == nil { dtlsStartNanoseconds = Self.nowNanoseconds() }
            handle(dtls: dtls.receive(bytes))
        case 128...191:
            readMedia(bytes, from: envelope.remoteAddress, on: context.eventLoop)
        default:
            counters.otherReceived += 1
        }
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.channel("\(error)"))
    }

    /// Hangs up before the socket closes: the SCTP ABORT, then DTLS's close_notify (as the
    /// caller's `WebRTCChannelHandler` does).
    package func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all {
            if !finished { dataChannelLink?.close() }
            if let remote {
                for datagram in dtls.shutdown().datagrams { write(datagram, to: remote, context: context) }
            }
            stop()
        }
        context.close(mode: mode, promise: promise)
    }

    private func receiveSTUN(_ bytes: [UInt8], from source: SocketAddress, context: ChannelHandlerContext) {
        guard let address = STUNAddress(source) else { return }
        let now = Self.nowNanoseconds()
        for action in ice.receive(bytes, from: address) {
            switch action {
            case .send(let response, _):
                if firstCheckNanoseconds == nil { firstCheckNanoseconds = now }
                write(response, to: source, context: context)
            case .selected:
                remote = source
                if iceMs == nil, let firstCheckNanoseconds { iceMs = Double(now - firstCheckNanoseconds) / 1_000_000 }
                if dtls.role == .client, dtlsStartNanoseconds == nil {
                    dtlsStartNanoseconds = now
                    handle(dtls: dtls.start())
                }
                completeIfConnected()
            }
        }
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
        if output.peerClosed { return callerHungUp(.dtlsCloseNotify) }
        rescheduleTimer()
    }

    private func writeApplicationData(_ packet: [UInt8]) {
        guard !finished else { return }
        handle(dtls: dtls.write(applicationData: packet))
    }

    /// `connected` once both the nomination and the handshake are in (a DTLS server can finish
    /// before the nominating check's retransmission arrives, so either may come second).
    private func completeIfConnected() {
        guard dtlsMs == nil, let iceMs, let media, let dtlsStartNanoseconds else { return }
        let dtlsMs = Double(Self.nowNanoseconds() - dtlsStartNanoseconds) / 1_000_000
        self.dtlsMs = dtlsMs
        connectDeadline?.cancel()
        if let context {
            let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
            let interval = TimeAmount.milliseconds(Self.idleTimeoutMs / 3)
            idleCheck = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                let handler = loopBound.value
                let idleMs = (Self.nowNanoseconds() - handler.lastReceiveNanoseconds) / 1_000_000
                if idleMs >= UInt64(Self.idleTimeoutMs) { handler.finish(.channel("the caller sent nothing for \(idleMs) ms")) }
            }
        }
        onEvent(.connected(iceMs: iceMs, dtlsMs: dtlsMs, srtpProfile: media.profile))
    }

    private func write(_ bytes: [UInt8], to destination: SocketAddress, context: ChannelHandlerContext) {
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(wrapOutboundOut(AddressedEnvelope(remoteAddress: destination, data: buffer)), promise: nil)
    }

    /// OpenSSL's retransmission timer, run on the loop.
    private func rescheduleTimer() {
        timer?.cancel()
        timer = nil
        guard let context, !finished, let timeoutUs = dtls.timeoutUs else { return }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: .microseconds(timeoutUs)) {
            let handler = loopBound.value
            handler.timer = nil
            handler.handle(dtls: handler.dtls.timerFired())
        }
    }

    private func finish(_ failure: WebRTCTransportFailure) { end(.failed(failure)) }

    /// The caller hung up: the session ends now, not when its silence times out.
    private func callerHungUp(_ hangUp: WebRTCHangUp) { end(.hungUp(hangUp)) }

    /// Ends the session once, with its last event (`failed` or `hungUp`).
    private func end(_ event: WebRTCTransportEvent) {
        guard !finished else { return }
        stop()
        dataChannelLink?.close()
        onEvent(event)
    }

    /// Nothing more is read, written or timed.
    private func stop() {
        finished = true
        timer?.cancel()
        idleCheck?.cancel()
        connectDeadline?.cancel()
    }

    /// vload's one monotonic clock: NIODeadline's (CLOCK_MONOTONIC), as WSCore's `MonotonicInstant`.
    private static func nowNanoseconds() -> UInt64 { NIODeadline.now().uptimeNanoseconds }
}
