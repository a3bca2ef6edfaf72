import NIOCore
import NIOPosix
import RTP
import WSClient
import WSCore
import WebRTC

/// One WebRTC call's I/O on the caller's event loop (docs/webrtc.md): binds a UDP socket on
/// every local address, posts the offer naming the run's address toward the agent
/// (`WebRTCCallTarget.localHost`), hands the answer to `WebRTCChannelHandler` (ICE, DTLS, SRTP and
/// the data channel), and turns what it reports into the `WebSocketConnectionEvent`s every
/// caller reads: each data channel message a text frame, each of the agent's Opus packets,
/// decoded, a binary frame of PCM16 at 48 kHz, both stamped with their arrival. What the call
/// means is the dialect's codec's and `CallAttempt`'s, as on a WebSocket. Used on its loop only.
final class WebRTCCallSession {
    let handler: WebRTCChannelHandler
    private let eventLoop: any EventLoop
    private let local: WebRTCLocalSide
    private var packetizer: RTPPacketizer
    /// The RTP clock's step per caller frame: the frame's samples at 48 kHz (RFC 7587 §4.1).
    private let timestampStepSamples: UInt32
    private var decoder: OpusPacketDecoder
    private(set) var receiveStatistics = RTPReceiveStatistics(clockRateHz: OpusClip.sampleRateHz)
    /// The SRTP profile DTLS agreed; nil until the transport connects.
    private(set) var srtpProfile: SRTPProfile?
    /// The agent's packets libopus could not decode (counted, not passed on).
    private(set) var undecodablePackets = 0
    private let onEvent: @Sendable (WebSocketConnectionEvent) -> Void
    /// The connect under way; nil once it opened or failed.
    private var opening: EventLoopPromise<WebRTCCallConnection>?
    private var timeout: Scheduled<Void>?
    private var channel: (any Channel)?
    private var signallingUs: Int64?
    private var transportMs: (ice: Double, dtls: Double)?
    private var opened = false
    private var closeReported = false
    /// Why the agent ended the call, when it hung up.
    private var hangUpReason: String?

    init(
        identity: DTLSIdentity, localHost: String, frameMs: Int, eventLoop: any EventLoop, opening: EventLoopPromise<WebRTCCallConnection>,
        onEvent: @escaping @Sendable (WebSocketConnectionEvent) -> Void
    ) throws(OpusError) {
        var generator = SystemRandomNumberGenerator()
        self.local = WebRTCLocalSide(identity: identity, host: localHost, generator: &generator)
        self.packetizer = RTPPacketizer(payloadType: SDPOffer.opusPayloadType, generator: &generator)
        self.timestampStepSamples = UInt32(OpusClip.sampleRateHz / 1_000 * frameMs)
        self.decoder = try OpusPacketDecoder()
        self.eventLoop = eventLoop
        self.opening = opening
        self.onEvent = onEvent
        var handle: ((WebRTCTransportEvent) -> Void)?
        self.handler = WebRTCChannelHandler(local: local) { handle?($0) }
        handle = { [weak self] in self?.handle($0) }
    }

    /// How far the connect got, for a timeout's line.
    private var reached: String {
        if transportMs != nil { return "ICE and DTLS connected, data channel not open" }
        if signallingUs != nil { return "offer answered, ICE and DTLS not connected" }
        return "no answer to the offer"
    }

    /// Binds the socket, then posts the offer; the whole connect must open within `timeoutMs`.
    func start(target: WebRTCCallTarget, timeoutMs: Int64) {
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        timeout = eventLoop.scheduleTask(in: .milliseconds(timeoutMs)) {
            bound.value.fail(.timedOut(reached: bound.value.reached))
        }
        DatagramBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(bound.value.handler) }
            }
            .bind(host: local.bindHost, port: 0)
            .whenComplete { result in
                switch result {
                case .success(let channel): bound.value.post(on: channel, target: target, timeoutMs: timeoutMs)
                case .failure(let error): bound.value.fail(.setup("UDP bind on 0.0.0.0: \(error)"))
                }
            }
    }

    private func post(on channel: any Channel, target: WebRTCCallTarget, timeoutMs: Int64) {
        self.channel = channel
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        channel.closeFuture.whenComplete { _ in bound.value.channelClosed() }
        guard opening != nil else { return channel.close(promise: nil) }
        var offer = local.offer(
            port: UInt16(channel.localAddress?.port ?? 0), ssrc: packetizer.ssrc,
            sessionID: UInt64.random(in: 1...UInt64(Int64.max)))
        offer.offersDataChannel = true
        let sentAt = MonotonicInstant.now()
        let answer: EventLoopFuture<String>
        switch target.signalling {
        case .smallWebRTC:
            answer = SmallWebRTCSignalling.post(SmallWebRTCOffer(sdp: offer.text), to: target.offerEndpoint, on: eventLoop, timeoutMs: timeoutMs)
                .map(\.sdp)
        case .openAIRealtimeCalls(let request):
            answer = request.post(offerSDP: offer.text, to: target.offerEndpoint, on: eventLoop, timeoutMs: timeoutMs)
        }
        let label = target.channelLabel
        answer.whenComplete { bound.value.answered($0, sentAt: sentAt, channelLabel: label) }
    }

    private func answered(_ result: Result<String, any Error>, sentAt: MonotonicInstant, channelLabel: String) {
        guard opening != nil else { return }
        let answer: String
        switch result {
        case .failure(let error as WebSocketConnectError): return fail(.http(error))
        case .failure(let error as any SignallingHTTPStatus):
            if let status = error.httpStatus { return fail(.signallingRejected(status: status, reason: "\(error)")) }
            return fail(.signalling("\(error)"))
        case .failure(let error): return fail(.signalling("\(error)"))
        case .success(let success): answer = success
        }
        signallingUs = MonotonicInstant.now().microseconds(since: sentAt)
        let sdp: SDPAnswer
        do {
            sdp = try SDPAnswer(parsing: answer)
        } catch {
            return fail(.signalling("the answer's SDP: \(error)"))
        }
        handler.connect(answer: sdp, dataChannel: DataChannelOpen(label: channelLabel))
    }

    private func handle(_ event: WebRTCTransportEvent) {
        switch event {
        case .connected(let iceMs, let dtlsMs, let srtpProfile):
            transportMs = (iceMs, dtlsMs)
            self.srtpProfile = srtpProfile
        case .dataChannelOpen(let openMs):
            channelOpened(dataChannelOpenMs: openMs)
        case .rtp(let packet, let arrivalNanoseconds):
            receive(packet, arrivalNanoseconds: arrivalNanoseconds)
        case .dataChannelText(let text, let arrivalNanoseconds):
            onEvent(.frame(TimestampedFrame(frame: .text(text), receivedAt: MonotonicInstant(nanoseconds: arrivalNanoseconds))))
        case .dataChannelBinary:
            break  // no voice agent vload speaks sends binary messages; the channel counts nothing more
        case .hungUp(let hangUp):
            // The agent ended the call: a close, as a WebSocket agent's close frame is.
            guard opened else { return fail(.transport(.channel(hangUp.description))) }
            hangUpReason = hangUp.description
            channel?.close(promise: nil)
        case .failed(let failure):
            guard opened else { return fail(.transport(failure)) }
            onEvent(.failed(WebSocketFailure(.io, failure.description), at: .now()))
            channel?.close(promise: nil)
        }
    }

    private func channelOpened(dataChannelOpenMs: Double) {
        guard let opening, let transportMs, let signallingUs else { return }
        self.opening = nil
        opened = true
        timeout?.cancel()
        let phases = WebRTCConnectPhases(
            signallingUs: signallingUs, iceUs: Int64((transportMs.ice * 1_000).rounded()),
            dtlsUs: Int64((transportMs.dtls * 1_000).rounded()), dataChannelOpenUs: Int64((dataChannelOpenMs * 1_000).rounded()))
        opening.succeed(WebRTCCallConnection(session: NIOLoopBound(self, eventLoop: eventLoop), openedAt: .now(), phases: phases))
    }

    /// An agent packet: counted (RFC 3550 statistics), decoded, and passed on as PCM16 48 kHz
    /// (host byte order, little-endian on every platform vload builds for), with the packet's
    /// payload, which a call that may be recorded keeps in place of the PCM.
    private func receive(_ packet: RTPPacket, arrivalNanoseconds: UInt64) {
        receiveStatistics.record(
            sequenceNumber: packet.header.sequenceNumber, timestamp: packet.header.timestamp, arrivalNs: arrivalNanoseconds)
        guard let bytes = try? decoder.decodePCM16(packet.payload), !bytes.isEmpty else {
            undecodablePackets += 1
            return
        }
        let frame = TimestampedFrame(
            frame: .binary(bytes),
            receivedAt: MonotonicInstant(nanoseconds: arrivalNanoseconds),
            mediaPayload: packet.payload
        )
        onEvent(.frame(frame))
    }

    private func fail(_ error: WebRTCConnectError) {
        guard let opening else { return }
        self.opening = nil
        timeout?.cancel()
        channel?.close(promise: nil)
        opening.fail(error)
    }

    /// A binary frame is one Opus packet of the caller's audio, sent as the next RTP packet of
    /// its stream; a text frame is a data channel message.
    func send(_ frame: EncodedFrame) {
        switch frame.kind {
        case .binary:
            let payload = Array(frame.payload.readableBytesView)
            handler.send(packetizer.packet(payload: payload, timestampStepSamples: timestampStepSamples))
        case .text:
            handler.send(text: String(buffer: frame.payload))
        }
    }

    /// Closes the socket, hanging up first (the SCTP ABORT and DTLS close_notify,
    /// docs/webrtc.md); `.closed` follows.
    func close() {
        channel?.close(promise: nil)
    }

    private func channelClosed() {
        guard opened, !closeReported else { return }
        closeReported = true
        onEvent(.closed(code: nil, reason: hangUpReason, at: .now()))
    }
}
