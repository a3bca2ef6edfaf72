import Foundation
import NIOCore
import NIOPosix
import VoiceLoad
import WSServer
import WebRTC

/// The simulator's SmallWebRTC signalling (docs/webrtc.md): `POST /api/offer` with Pipecat's
/// body (`sdp`, `type`, `pc_id`, `restart_pc`) answered as Pipecat's runner answers
/// (`{"sdp", "type": "answer", "pc_id"}`). Each offer is a new session: a UDP socket on
/// 127.0.0.1 bound on the event loop the request came in on (one loop per session), an ICE-lite,
/// passive answer naming it, and a `SimulatorWebRTCCall` on it. A `pc_id` or `restart_pc` is not
/// honoured (no renegotiation): every offer is a new call.
struct SimulatorWebRTCAnswerer: Sendable {
    static let path = "/api/offer"

    let configuration: SimulatorConfiguration
    let dialect: any ServerDialect
    let audio: ReplyAudio
    let identity: DTLSIdentity
    let tally: SimulatorTally
    let noise: NoiseWindows?
    let decoderLagSamples: Int
    let slowdown: @Sendable () -> Double

    /// The answer to a plain HTTP request: nil for one that is not `POST /api/offer`.
    func answer(_ request: PlainHTTPRequest, on eventLoop: any EventLoop) -> EventLoopFuture<PlainHTTPResponse>? {
        guard request.method == "POST", request.path == Self.path else { return nil }
        struct Wire: Decodable {
            var sdp: String
            var type: String
        }
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(request.body)), wire.type == "offer" else {
            return eventLoop.makeSucceededFuture(Self.badRequest("the body is not {\"sdp\": …, \"type\": \"offer\"}"))
        }
        let offer: SDPReceivedOffer
        do {
            offer = try SDPReceivedOffer(parsing: wire.sdp)
        } catch {
            return eventLoop.makeSucceededFuture(Self.badRequest(error.description))
        }
        let number = tally.nextSessionNumber()
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
            .bind(host: "127.0.0.1", port: 0)
            .map { channel in
                let answer = SDPLiteAnswer(
                    sessionID: number, iceUfrag: credentials.ufrag, icePassword: credentials.password,
                    candidate: ICECandidate(
                        foundation: "1", component: 1, transport: "udp", priority: ICECandidate.priority(kind: .host), host: "127.0.0.1",
                        port: UInt16(channel.localAddress?.port ?? 0), kind: .host),
                    fingerprint: identity.fingerprint, ssrc: ssrc, cname: "vload-simulator", offer: offer)
                return PlainHTTPResponse(status: 200, body: Self.answerBody(sdp: answer.text, pcID: "sim-pc-\(number)"))
            }
            .recover { error in PlainHTTPResponse(status: 500, contentType: "text/plain", body: Array("no WebRTC session: \(error)".utf8)) }
    }

    private func makeCall(offer: SDPReceivedOffer, number: UInt64, eventLoop: any EventLoop) throws -> SimulatorWebRTCCall {
        let session = SimulatorSession(
            configuration: configuration, sessionStart: dialect.sessionStart, speaks: dialect.speaks,
            awaitsToolResults: dialect.awaitsToolResults, inputFormat: dialect.inputFormat, chunkCounts: audio.chunkCounts,
            sessionNumber: number, noise: noise)
        let tally = tally
        return try SimulatorWebRTCCall(
            eventLoop: eventLoop, session: session, codec: dialect.makeCodec(target: Self.path), audio: audio,
            payloadType: offer.opusPayloadType, ssrcSeed: configuration.seed &+ number, decoderLagSamples: decoderLagSamples,
            slowdown: slowdown, onFinish: { statistics, replyLatenessUs in tally.sessionEnded(statistics, replyLatenessUs: replyLatenessUs) })
    }

    /// Pipecat's answer body, keys sorted.
    static func answerBody(sdp: String, pcID: String) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(["sdp": sdp, "type": "answer", "pc_id": pcID])) ?? Data())
    }

    private static func badRequest(_ reason: String) -> PlainHTTPResponse {
        PlainHTTPResponse(status: 400, contentType: "text/plain", body: Array(reason.utf8))
    }
}
