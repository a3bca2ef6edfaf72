import Foundation
import NIOCore
import NIOPosix
import RTP
import VoiceLoad
import WSClient
import WSCore
import WebRTC

// The WebRTC transport on its own, for the conformance suite's live test against aiortc
// (Tests/Conformance/test_webrtc_transport.py) and BENCHMARKS.md: prints its SDP offer as one
// JSON line, reads the answer as one JSON line on standard input, connects over ICE and DTLS on
// 127.0.0.1, sends `--seconds` of the clip as 20 ms Opus frames over SRTP, decodes what the peer
// sends, and prints what it counted as one JSON line. With `--messages N` the offer has a data
// channel section; the probe opens a channel labelled "vload" once DTLS is done, sends N text
// messages when the peer acknowledges it, and counts what comes back. With `--offer-url URL` it
// is a Pipecat SmallWebRTC client instead: it POSTs the offer (with a data channel) to the bot's
// `/api/offer`, connects to the answer, sends RTVI's `client-ready` when the channel opens, and
// reports the signalling time and the RTVI messages that came back.
//
//     vload-webrtc-probe [--seconds 3] [--linger-ms 1000] [--clip scenarios/audio/hello.wav]
//                        [--messages 0 | --offer-url http://127.0.0.1:PORT/api/offer]

func option(_ name: String, default value: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    return arguments[index + 1]
}

func printLine(_ object: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = .sortedKeys
    FileHandle.standardOutput.write(try encoder.encode(object) + Data("\n".utf8))
}

struct Offer: Encodable { var type = "offer"; var sdp: String }
struct Answer: Decodable { var sdp: String }
struct Failure: Encodable { var error: String }

guard let seconds = Int(option("--seconds", default: "3")), (1...60).contains(seconds),
    let lingerMs = Int64(option("--linger-ms", default: "1000")), (0...10_000).contains(lingerMs),
    let messageCount = Int(option("--messages", default: "0")), (0...10_000).contains(messageCount)
else { throw ProbeError.usage("--seconds 1…60, --linger-ms 0…10000 and --messages 0…10000") }
let offerURL = CommandLine.arguments.contains("--offer-url") ? option("--offer-url", default: "") : nil
let offerEndpoint = try offerURL.map { url in
    guard let endpoint = HTTPEndpoint(parsing: url) else { throw ProbeError.usage("--offer-url needs an http(s) URL, not \(url)") }
    return endpoint
}
let channelMessages = offerEndpoint != nil ? ProbeChannelMessages.rtviClientReady : .numbered(messageCount)
let clip = try OpusClip.encode(try WAVReader.read(path: option("--clip", default: "scenarios/audio/hello.wav")))
var generator = SystemRandomNumberGenerator()
let local = WebRTCLocalSide(identity: try DTLSIdentity(), generator: &generator)
let packetizer = RTPPacketizer(payloadType: SDPOffer.opusPayloadType, generator: &generator)

let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let loop = group.next()
let result = loop.makePromise(of: ProbeResult.self)
let start = loop.makePromise(of: ProbeStart.self)
let channel = try await DatagramBootstrap(group: loop)
    .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            let probe = try Probe(
                local: local, clip: clip, frameCount: seconds * 1_000 / OpusClip.frameMs, channelMessages: channelMessages,
                lingerMs: lingerMs, result: result)
            try channel.pipeline.syncOperations.addHandler(probe.handler)
            let loopBound = NIOLoopBound(probe, eventLoop: channel.eventLoop)
            start.futureResult.whenSuccess { start in
                loopBound.value.signallingMs = start.signallingMs
                loopBound.value.start(start, on: channel.eventLoop)
            }
        }
    }
    .bind(host: "127.0.0.1", port: 0).get()

let port = UInt16(channel.localAddress?.port ?? 0)
var offer = local.offer(port: port, ssrc: packetizer.ssrc, sessionID: UInt64.random(in: 1...UInt64(Int64.max)))
offer.offersDataChannel = !channelMessages.isEmpty
do {
    do {
        let (answerText, signallingMs) = try await answer(to: offer.text, endpoint: offerEndpoint, on: loop)
        start.succeed(
            ProbeStart(
                answer: try SDPAnswer(parsing: answerText), packetizer: packetizer,
                dataChannel: channelMessages.isEmpty ? nil : DataChannelOpen(label: "vload"), signallingMs: signallingMs))
    } catch {
        start.fail(error)
        throw error
    }
    try printLine(try await result.futureResult.get())
} catch {
    try printLine(Failure(error: "\(error)"))
    try await channel.close().get()
    try await group.shutdownGracefully()
    exit(1)
}
try await channel.close().get()
try await group.shutdownGracefully()

/// The answer's SDP: from the bot's `/api/offer` (and the POST's round trip in ms), or from one
/// JSON line on standard input after the offer went out as one on standard output.
func answer(to offer: String, endpoint: HTTPEndpoint?, on loop: any EventLoop) async throws -> (String, Double?) {
    guard let endpoint else {
        try printLine(Offer(sdp: offer))
        guard let line = readLine(), let answer = try? JSONDecoder().decode(Answer.self, from: Data(line.utf8)).sdp else {
            throw ProbeError.usage("expected the answer as one JSON line {\"sdp\": …} on standard input")
        }
        return (answer, nil)
    }
    let sent = MonotonicInstant.now().nanoseconds
    let answer = try await SmallWebRTCSignalling.post(SmallWebRTCOffer(sdp: offer), to: endpoint, on: loop).get()
    return (answer.sdp, Double(MonotonicInstant.now().nanoseconds - sent) / 1_000_000)
}
