import Foundation
import NIOCore
import NIOPosix
import RTP
import VoiceLoad
import WebRTC

// The WebRTC transport on its own, for the conformance suite's live test against aiortc
// (Tests/Conformance/test_webrtc_transport.py) and BENCHMARKS.md: prints its SDP offer as one
// JSON line, reads the answer as one JSON line on standard input, connects over ICE and DTLS on
// 127.0.0.1, sends `--seconds` of the clip as 20 ms Opus frames over SRTP, decodes what the peer
// sends, and prints what it counted as one JSON line. With `--messages N` the offer has a data
// channel section; the probe opens a channel labelled "vload" once DTLS is done, sends N text
// messages when the peer acknowledges it, and counts what comes back.
//
//     vload-webrtc-probe [--seconds 3] [--linger-ms 1000] [--clip scenarios/audio/hello.wav] [--messages 0]

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
                local: local, clip: clip, frameCount: seconds * 1_000 / OpusClip.frameMs, messageCount: messageCount, lingerMs: lingerMs,
                result: result)
            try channel.pipeline.syncOperations.addHandler(probe.handler)
            let loopBound = NIOLoopBound(probe, eventLoop: channel.eventLoop)
            start.futureResult.whenSuccess { loopBound.value.start($0, on: channel.eventLoop) }
        }
    }
    .bind(host: "127.0.0.1", port: 0).get()

let port = UInt16(channel.localAddress?.port ?? 0)
var offer = local.offer(host: "127.0.0.1", port: port, ssrc: packetizer.ssrc, sessionID: UInt64.random(in: 1...UInt64(Int64.max)))
offer.offersDataChannel = messageCount > 0
try printLine(Offer(sdp: offer.text))
guard let line = readLine(), let answerText = try? JSONDecoder().decode(Answer.self, from: Data(line.utf8)).sdp else {
    throw ProbeError.usage("expected the answer as one JSON line {\"sdp\": …} on standard input")
}
do {
    do {
        start.succeed(
            ProbeStart(
                answer: try SDPAnswer(parsing: answerText), packetizer: packetizer,
                dataChannel: messageCount > 0 ? DataChannelOpen(label: "vload") : nil))
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
