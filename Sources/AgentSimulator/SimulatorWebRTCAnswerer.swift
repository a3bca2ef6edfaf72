import NIOCore
import NIOPosix
import WSCore
import VoiceLoad
import WSServer
import WebRTC

/// The simulator's WebRTC signalling (docs/webrtc.md), by its dialect's `WebRTCOfferSignalling`:
/// Pipecat's `POST /api/offer` (JSON both ways) or OpenAI Realtime's `POST /v1/realtime/calls`
/// (a form with a Bearer key in, the SDP answer with `201 Created` out). Each offer is a new
/// session: a UDP socket bound on the event loop the request came in on (one loop per session),
/// on the IPv4 address the request came to (`udpHost`), an ICE-lite, passive answer naming it,
/// and a `SimulatorWebRTCCall` on it.
struct SimulatorWebRTCAnswerer: Sendable {
    let signalling: WebRTCOfferSignalling
    let configuration: SimulatorConfiguration
    let dialect: any ServerDialect
    let audio: ReplyAudio
    /// What the agent streams between its turns (`IdleSilence`); nil: nothing.
    let idleSilencePacket: [UInt8]?
    let pacers: FramePacers
    /// The simulator's start, which `--sim-outage`'s window counts from.
    let startedAt: MonotonicInstant
    /// The per-reply faults, drawn over every reply of the simulator; nil: none.
    let replyFaults: ReplyFaultDrawer?
    let identity: DTLSIdentity
    let tally: SimulatorTally
    let noise: NoiseWindows?
    let decoderLagSamples: Int
    let slowdown: @Sendable () -> Double

    /// The answer to a plain HTTP request: nil for one that is not a POST to the signalling's path.
    func answer(_ request: PlainHTTPRequest, on eventLoop: any EventLoop) -> EventLoopFuture<PlainHTTPResponse>? {
        guard request.method == "POST", request.path == signalling.path else { return nil }
        // An outage refuses every offer, as it refuses every upgrade.
        if let outage = configuration.outageMs, outage.contains(Int(MonotonicInstant.now().milliseconds(since: startedAt))) {
            return eventLoop.makeSucceededFuture(refused(status: 503))
        }
        let offer: SDPReceivedOffer
        switch signalling.offerSDP(headers: request.headers, body: request.body) {
        case .failure(let refusal):
            return eventLoop.makeSucceededFuture(Self.response(refusal))
        case .success(let sdp):
            do {
                offer = try SDPReceivedOffer(parsing: sdp)
            } catch {
                return eventLoop.makeSucceededFuture(Self.response(signalling.badOffer(error.description)))
            }
        }
        let number = tally.nextSessionNumber()
        if case .refuse(let status)? = configuration.faults.sessionFault(sessionNumber: number, seed: configuration.seed) {
            return eventLoop.makeSucceededFuture(refused(status: status))
        }
        var random = SystemRandomNumberGenerator()
        let credentials = SDPOffer.iceCredentials(generator: &random)
        let ssrc = UInt32.random(in: 1 ... .max, using: &random)
        return DatagramBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let call = try makeCall(offer: offer, number: number, eventLoop: channel.eventLoop)
                    let handler = try WebRTCAnswerHandler(
                        offer: offer, localUfrag: credentials.ufrag, localPassword: credentials.password, identity: identity
                    ) { call.handle($0) }
                    call.handler = handler
                    call.channel = channel
                    try channel.pipeline.syncOperations.addHandler(handler)
                    tally.sessionOpened()
                }
            }
            .bind(host: Self.udpHost(request), port: 0)
            .map { channel in
                let answer = SDPLiteAnswer(
                    sessionID: number, iceUfrag: credentials.ufrag, icePassword: credentials.password,
                    candidate: ICECandidate(
                        foundation: "1", component: 1, transport: "udp", priority: ICECandidate.priority(kind: .host),
                        host: channel.localAddress?.ipAddress ?? "127.0.0.1", port: UInt16(channel.localAddress?.port ?? 0), kind: .host),
                    fingerprint: identity.fingerprint, ssrc: ssrc, cname: "vload-simulator", offer: offer)
                return Self.response(signalling.answer(sdp: answer.text, sessionNumber: number))
            }
            .recover { error in PlainHTTPResponse(status: 500, contentType: "text/plain", body: Array("no WebRTC session: \(error)".utf8)) }
    }

    private func makeCall(offer: SDPReceivedOffer, number: UInt64, eventLoop: any EventLoop) throws -> SimulatorWebRTCCall {
        let tally = tally
        return try SimulatorWebRTCCall(
            eventLoop: eventLoop,
            session: { streamsSilenceWhileIdle in
                SimulatorSession(
                    configuration: configuration, sessionStart: dialect.sessionStart, speaks: dialect.speaks,
                    awaitsToolResults: dialect.awaitsToolResults, inputFormat: dialect.inputFormat, chunkCounts: audio.chunkCounts,
                    sessionNumber: number, replyFaults: replyFaults, noise: noise, streamsSilenceWhileIdle: streamsSilenceWhileIdle)
            },
            codec: dialect.makeCodec(target: signalling.path), audio: audio,
            idleSilencePacket: idleSilencePacket, pacer: pacers.pacer(for: eventLoop), payloadType: offer.opusPayloadType,
            ssrcSeed: configuration.seed &+ number, decoderLagSamples: decoderLagSamples,
            slowdown: slowdown, onFinish: { statistics, replyLatenessUs in tally.sessionEnded(statistics, replyLatenessUs: replyLatenessUs) })
    }

    /// Where a call's UDP socket binds: the address the offer came to, IPv4 or IPv6, so a caller
    /// on another machine (`vload serve --host 0.0.0.0` or `::`) is answered with an address it
    /// reaches, over the family its offer came by (a vload caller offers and checks that family
    /// only); 127.0.0.1 when the address is unknown or IPv6 link-local (which needs its interface
    /// named).
    static func udpHost(_ request: PlainHTTPRequest) -> String {
        // A dual-stack listener (`--host ::`) sees an IPv4 caller at an IPv4-mapped address.
        let host = request.localHost.map { $0.lowercased().hasPrefix("::ffff:") ? String($0.dropFirst(7)) : $0 }
        guard let host, let address = STUNAddress(ip: host, port: 0), !address.isIPv6LinkLocal else { return "127.0.0.1" }
        return address.host
    }

    /// An injected refusal of the offer (`refuse:STATUS`, `--sim-outage`), counted as injected.
    private func refused(status: Int) -> PlainHTTPResponse {
        tally.faultInjected(.refuse(status: status))
        return PlainHTTPResponse(status: status, contentType: "application/json", body: Array(AgentSimulator.refusalBody(status: status, refused: "offer").utf8))
    }

    private static func response(_ reply: WebRTCSignallingReply) -> PlainHTTPResponse {
        PlainHTTPResponse(status: reply.status, contentType: reply.contentType, body: reply.body)
    }
}
