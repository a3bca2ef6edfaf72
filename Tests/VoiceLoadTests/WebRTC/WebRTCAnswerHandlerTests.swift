import NIOCore
import NIOPosix
import RTP
import Testing

@testable import WebRTC

/// vload's own caller (`WebRTCChannelHandler`, as `pipecat-webrtc` runs it) against the
/// answering side (`WebRTCAnswerHandler`, the simulator's) over real UDP sockets on 127.0.0.1 (and ::1):
/// the answerer reads the caller's offer, writes an ICE-lite, passive answer, the caller reads it
/// back, checks, nominates, starts DTLS as the client, sends SRTP and opens its channel; the
/// answerer accepts it and answers on it. Then one side hangs up by closing its socket, and the
/// other ends the call on the goodbye it sent.
@Suite("WebRTC answerer against vload's caller")
struct WebRTCAnswerHandlerTests {
    static let packetCount = 5
    static let texts = ["client-ready", "", "last"]

    /// One side's outcomes, each fulfilled once; both sides are driven on one loop.
    final class Side {
        let connected: EventLoopPromise<Void>
        let received: EventLoopPromise<[RTPPacket]>
        let texts: EventLoopPromise<[String]>
        /// How the peer hung up, and the DTLS datagrams this side had received by then.
        let hungUp: EventLoopPromise<HangUpSeen>
        var packets: [RTPPacket] = []
        var messages: [String] = []
        var send: (RTPPacket) -> Void = { _ in }
        var sendText: (String) -> Void = { _ in }
        var connect: (SDPAnswer) -> Void = { _ in }
        var counters: () -> WebRTCTransportCounters = { WebRTCTransportCounters() }
        var consentChecks: () -> (sent: Int, answered: Int) = { (0, 0) }
        let payloadByte: UInt8
        let ssrc: UInt32
        /// What the side does when its channel opens (the caller sends its texts) and on each text
        /// (the answerer echoes it).
        let onOpen: (Side) -> Void
        let echoes: Bool

        init(loop: any EventLoop, payloadByte: UInt8, ssrc: UInt32, echoes: Bool, onOpen: @escaping (Side) -> Void) {
            connected = loop.makePromise()
            received = loop.makePromise()
            texts = loop.makePromise()
            hungUp = loop.makePromise()
            self.payloadByte = payloadByte
            self.ssrc = ssrc
            self.echoes = echoes
            self.onOpen = onOpen
        }

        /// The outcomes, to wait on off the loop.
        var promises: Promises { Promises(connected: connected, received: received, texts: texts, hungUp: hungUp) }

        func handle(_ event: WebRTCTransportEvent) {
            switch event {
            case .connected:
                var packetizer = RTPPacketizer(payloadType: 111, ssrc: ssrc, firstSequenceNumber: 65_534, firstTimestamp: 0)
                for index in 0..<WebRTCAnswerHandlerTests.packetCount {
                    send(packetizer.packet(payload: [payloadByte, UInt8(index)], timestampStepSamples: 960))
                }
                sawConnected = true
                connected.succeed()
            case .rtp(let packet, _):
                packets.append(packet)
                if packets.count == WebRTCAnswerHandlerTests.packetCount { received.succeed(packets) }
            case .dataChannelOpen:
                onOpen(self)
            case .dataChannelText(let text, _):
                messages.append(text)
                if echoes { sendText(text) }
                if messages.count == WebRTCAnswerHandlerTests.texts.count { texts.succeed(messages) }
            case .dataChannelBinary:
                break
            case .hungUp(let hangUp):
                sawHangUp = true
                hungUp.succeed(HangUpSeen(hangUp: hangUp, dtlsReceived: counters().dtlsReceived))
            case .failed(let failure):
                giveUp(failure)
            }
        }

        /// Fails what has not happened: on a transport failure, or when the test's time is up
        /// (no latency is asserted; the bound only ends a test whose datagram went missing), with
        /// an error naming what this side was still waiting for.
        func giveUp(_ error: (any Error)? = nil) {
            let reason = error ?? TimeUp(side: ssrc == 0xCA11 ? "caller" : "answerer", waitingFor: waitingFor)
            connected.fail(reason)
            received.fail(reason)
            texts.fail(reason)
            hungUp.fail(reason)
        }

        /// The outcomes not yet seen, for `TimeUp`.
        private var waitingFor: [String] {
            var names: [String] = []
            if !sawConnected { names.append("connected") }
            if packets.count < WebRTCAnswerHandlerTests.packetCount { names.append("\(packets.count) of \(WebRTCAnswerHandlerTests.packetCount) RTP packets") }
            if messages.count < WebRTCAnswerHandlerTests.texts.count { names.append("\(messages.count) of \(WebRTCAnswerHandlerTests.texts.count) texts") }
            if !sawHangUp { names.append("the peer's hang-up") }
            return names
        }
        private var sawConnected = false
        private var sawHangUp = false
    }

    /// A bound that fired: which side, and what it had not seen.
    struct TimeUp: Error, CustomStringConvertible {
        let side: String
        let waitingFor: [String]
        var description: String { "the test's bound fired; the \(side) was waiting for \(waitingFor.joined(separator: ", "))" }
    }

    struct HangUpSeen: Sendable {
        let hangUp: WebRTCHangUp
        let dtlsReceived: Int
    }

    struct Promises: Sendable {
        let connected: EventLoopPromise<Void>
        let received: EventLoopPromise<[RTPPacket]>
        let texts: EventLoopPromise<[String]>
        let hungUp: EventLoopPromise<HangUpSeen>
    }

    @Test(
        "ICE-lite and passive, over IPv4 and IPv6: connects, five SRTP packets each way with a sequence wrap, the caller's channel accepted and echoed, consent kept, then one side hangs up and the other ends on its goodbye",
        arguments: zip([true, false], ["127.0.0.1", "::1"]))
    func callerAgainstAnswerer(callerHangsUp: Bool, host: String) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        var generator = SystemRandomNumberGenerator()
        var callerSide = WebRTCLocalSide(identity: try DTLSIdentity(), host: host, generator: &generator)
        // Consent checks every 16-24 ms instead of 4-6 s, so that a few are answered in the test.
        callerSide.consentIntervalUs = 20_000
        let local = callerSide
        let answererIdentity = try DTLSIdentity()
        let callerReady = loop.makePromise(of: NIOLoopBound<Side>.self)
        let answererReady = loop.makePromise(of: NIOLoopBound<Side>.self)

        let callerChannel = try await DatagramBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let caller = Side(loop: channel.eventLoop, payloadByte: 0x78, ssrc: 0xCA11, echoes: false) { side in
                        for text in WebRTCAnswerHandlerTests.texts { side.sendText(text) }
                    }
                    let handler = WebRTCChannelHandler(local: local) { caller.handle($0) }
                    caller.send = { handler.send($0) }
                    caller.sendText = { handler.send(text: $0) }
                    caller.connect = { handler.connect(answer: $0, dataChannel: DataChannelOpen(label: "vload")) }
                    caller.counters = { handler.counters }
                    caller.consentChecks = { handler.consentChecks }
                    try channel.pipeline.syncOperations.addHandler(handler)
                    callerReady.succeed(NIOLoopBound(caller, eventLoop: channel.eventLoop))
                }
            }
            .bind(host: host, port: 0).get()
        var offer = local.offer(port: UInt16(callerChannel.localAddress!.port!), ssrc: 0xCA11, sessionID: 1)
        offer.offersDataChannel = true
        let received = try SDPReceivedOffer(parsing: offer.text)
        let answererChannel = try await DatagramBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let answerer = Side(loop: channel.eventLoop, payloadByte: 0xF8, ssrc: 0xFEED, echoes: true) { _ in }
                    let handler = try WebRTCAnswerHandler(
                        offer: received, localUfrag: "simUfrag", localPassword: "simPassword0123456789abc", identity: answererIdentity
                    ) { answerer.handle($0) }
                    answerer.send = { handler.send($0) }
                    answerer.sendText = { handler.send(text: $0) }
                    answerer.counters = { handler.counters }
                    try channel.pipeline.syncOperations.addHandler(handler)
                    answererReady.succeed(NIOLoopBound(answerer, eventLoop: channel.eventLoop))
                }
            }
            .bind(host: host, port: 0).get()
        let answer = SDPLiteAnswer(
            sessionID: 2, iceUfrag: "simUfrag", icePassword: "simPassword0123456789abc",
            candidate: ICECandidate(
                foundation: "1", component: 1, transport: "udp", priority: ICECandidate.priority(kind: .host), host: host,
                port: UInt16(answererChannel.localAddress!.port!), kind: .host),
            fingerprint: answererIdentity.fingerprint, ssrc: 0xFEED, cname: "sim", offer: received)
        let parsedAnswer = try SDPAnswer(parsing: answer.text)
        let callerBound = try await callerReady.futureResult.get()
        let answererBound = try await answererReady.futureResult.get()
        // Each bound covers only what the loop does on its own (no latency is asserted; a bound ends
        // a test whose datagram went missing). The steps this task takes between them, under a
        // parallel test run's load, are not timed: a bound running across them failed a busy CI host.
        let giveUp: @Sendable () -> Void = {
            callerBound.value.giveUp()
            answererBound.value.giveUp()
        }
        let (caller, answerer, exchangeBound) = try await loop.submit {
            let bound = loop.scheduleTask(in: .seconds(20), giveUp)
            callerBound.value.connect(parsedAnswer)
            return (callerBound.value.promises, answererBound.value.promises, NIOLoopBound(bound, eventLoop: loop))
        }.get()

        try await caller.connected.futureResult.get()
        try await answerer.connected.futureResult.get()
        let atAnswerer = try await answerer.received.futureResult.get()
        let atCaller = try await caller.received.futureResult.get()
        #expect(atAnswerer.map(\.payload) == (0..<Self.packetCount).map { [0x78, UInt8($0)] })
        #expect(atCaller.map(\.payload) == (0..<Self.packetCount).map { [0xF8, UInt8($0)] })
        #expect(atCaller.map(\.header.sequenceNumber) == [65_534, 65_535, 0, 1, 2])
        #expect(try await answerer.texts.futureResult.get() == Self.texts)
        #expect(try await caller.texts.futureResult.get() == Self.texts)
        let counters = try await loop.submit {
            exchangeBound.value.cancel()
            return (answererBound.value.counters(), callerBound.value.counters())
        }.get()
        #expect(counters.0.rtpRejected == 0 && counters.1.rtpRejected == 0 && counters.0.rtpReceived == Self.packetCount)
        // The answerer's ICE-lite responder answers the caller's consent checks on the selected pair.
        try await Task.sleep(for: .milliseconds(200))
        let consent = try await loop.submit { callerBound.value.consentChecks() }.get()
        #expect(consent.sent >= 3 && consent.answered >= consent.sent - 1, "\(consent)")

        // One side hangs up: closing its socket first writes the SCTP ABORT and DTLS's close_notify
        // (two datagrams). The other side reports `hungUp`, not the `failed` its 3 s idle bound
        // (answerer) or consent (caller) would give, on those very datagrams: it had received at
        // most three DTLS datagrams more than before the close. The third is an SCTP SACK that
        // usrsctp's own thread may send at the same instant: it acknowledges the last echoed text
        // on its 200 ms delayed-ack timer, as long after the texts as the consent wait above, and
        // it was seen in 4 of 65 runs.
        let (closing, other) = callerHangsUp ? (callerChannel, answerer) : (answererChannel, caller)
        let otherCounters = callerHangsUp ? answererBound : callerBound
        let dtlsBefore = try await loop.submit {
            let before = otherCounters.value.counters().dtlsReceived
            loop.scheduleTask(in: .seconds(20), giveUp)
            closing.close(promise: nil)
            return before
        }.get()
        let seen = try await other.hungUp.futureResult.get()
        #expect(seen.hangUp == .dtlsCloseNotify || seen.hangUp == .sctpAbort, "\(seen.hangUp)")
        #expect(seen.dtlsReceived > dtlsBefore && seen.dtlsReceived <= dtlsBefore + 3, "\(dtlsBefore) then \(seen.dtlsReceived)")
        try await (callerHangsUp ? answererChannel : callerChannel).close().get()
        try await group.shutdownGracefully()
    }
}
