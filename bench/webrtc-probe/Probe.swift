import Foundation
import NIOCore
import RTP
import VoiceLoad
import WSCore
import WebRTC

/// What the probe reports on its last line of output, as JSON.
struct ProbeResult: Encodable, Sendable {
    var iceMs: Double
    var dtlsMs: Double
    var packetsSent: Int
    var packetsReceived: Int
    var packetsDecoded: Int
    var samplesDecoded: Int
    var packetsExpected: Int
    var packetsLost: Int
    var latePackets: Int
    var jitterMs: Double
    var packetsRejected: Int
    /// With a data channel: its open time, and the text messages sent and received.
    var dataChannelOpenMs: Double?
    var messagesSent: Int?
    var messagesReceived: Int?
    /// With `--messages N`: whether every message that came back is the one sent in that place.
    var echoesInOrder: Bool?
    /// With `--offer-url`: the POST's round trip, each message's JSON `type` as received, and
    /// the first message's arrival after the channel opened (Pipecat's `bot-ready`).
    var signallingMs: Double?
    var receivedTypes: [String]?
    var firstReplyMs: Double?
}

/// What the probe needs once the answer is in.
struct ProbeStart: Sendable {
    var answer: SDPAnswer
    var packetizer: RTPPacketizer
    /// The data channel to open, when the offer had its section.
    var dataChannel: DataChannelOpen?
    /// The SmallWebRTC POST's round trip, with `--offer-url`.
    var signallingMs: Double?
}

/// One WebRTC session on the event loop: connects, paces the clip's Opus frames every 20 ms for
/// `frameCount` frames, counts and decodes the peer's audio, and reports after `lingerMs`.
final class Probe {
    let handler: WebRTCChannelHandler
    private let clip: OpusClip
    private let frameCount: Int
    private let lingerMs: Int64
    private let result: EventLoopPromise<ProbeResult>
    private var packetizer: RTPPacketizer?
    private var statistics = RTPReceiveStatistics(clockRateHz: OpusClip.sampleRateHz)
    private var decoder: OpusPacketDecoder
    private var phases: (iceMs: Double, dtlsMs: Double)?
    private var packetsDecoded = 0
    private var samplesDecoded = 0
    private var completed = false
    private let channelMessages: ProbeChannelMessages
    private var dataChannelOpenMs: Double?
    private var openedNanoseconds: UInt64?
    private var messagesSent = 0
    private var messagesReceived: [(text: String, arrivalNanoseconds: UInt64)] = []
    var signallingMs: Double?

    init(
        local: WebRTCLocalSide, clip: OpusClip, frameCount: Int, channelMessages: ProbeChannelMessages, lingerMs: Int64,
        result: EventLoopPromise<ProbeResult>
    ) throws {
        self.clip = clip
        self.channelMessages = channelMessages
        self.frameCount = frameCount
        self.lingerMs = lingerMs
        self.result = result
        self.decoder = try OpusPacketDecoder()
        var onEvent: ((WebRTCTransportEvent) -> Void)?
        self.handler = WebRTCChannelHandler(local: local) { onEvent?($0) }
        onEvent = { [unowned self] in self.handle($0) }
    }

    func start(_ start: ProbeStart, on loop: any EventLoop) {
        packetizer = start.packetizer
        handler.connect(answer: start.answer, dataChannel: start.dataChannel)
        let loopBound = NIOLoopBound(self, eventLoop: loop)
        loop.scheduleTask(in: .seconds(15)) {
            if loopBound.value.phases == nil { loopBound.value.complete(.failure(ProbeError.notConnected)) }
        }
    }

    private func handle(_ event: WebRTCTransportEvent) {
        switch event {
        case .connected(let iceMs, let dtlsMs, _):
            phases = (iceMs, dtlsMs)
            sendFrames()
        case .rtp(let packet, let arrivalNanoseconds):
            statistics.record(sequenceNumber: packet.header.sequenceNumber, timestamp: packet.header.timestamp, arrivalNs: arrivalNanoseconds)
            if let samples = try? decoder.decode(packet.payload) {
                packetsDecoded += 1
                samplesDecoded += samples.count
            }
        case .dataChannelOpen(let openMs):
            dataChannelOpenMs = openMs
            openedNanoseconds = MonotonicInstant.now().nanoseconds
            for text in channelMessages.opening where handler.send(text: text) { messagesSent += 1 }
        case .dataChannelText(let text, let arrivalNanoseconds):
            messagesReceived.append((text, arrivalNanoseconds))
        case .dataChannelBinary:
            break
        case .hungUp:
            report()  // the peer ended the call: what was counted is the result
        case .failed(let failure):
            complete(.failure(failure))
        }
    }


    /// One frame every 20 ms on the event loop's clock, `frameCount` in all, cycling the clip.
    private func sendFrames() {
        guard let loop = handler.eventLoop else { return }
        let startNs = MonotonicInstant.now().nanoseconds
        let loopBound = NIOLoopBound(self, eventLoop: loop)
        for index in 0..<frameCount {
            let deadline = NIODeadline.uptimeNanoseconds(startNs + UInt64(index) * UInt64(OpusClip.frameMs) * 1_000_000)
            loop.scheduleTask(deadline: deadline) { loopBound.value.sendFrame(index) }
        }
        let endNs = startNs + UInt64(frameCount * OpusClip.frameMs) * 1_000_000 + UInt64(lingerMs) * 1_000_000
        loop.scheduleTask(deadline: .uptimeNanoseconds(endNs)) { loopBound.value.report() }
    }

    private func sendFrame(_ index: Int) {
        let frame = clip.frames[index % clip.frames.count]
        guard let packet = packetizer?.packet(payload: frame.payload, timestampStepSamples: frame.timestampStepSamples) else { return }
        handler.send(packet)
    }

    private func report() {
        guard let phases else { return }
        complete(.success(
            ProbeResult(
                iceMs: phases.iceMs, dtlsMs: phases.dtlsMs, packetsSent: handler.counters.rtpSent,
                packetsReceived: statistics.packetsReceived, packetsDecoded: packetsDecoded, samplesDecoded: samplesDecoded,
                packetsExpected: statistics.packetsExpected, packetsLost: statistics.packetsLost, latePackets: statistics.latePackets,
                jitterMs: statistics.jitterMs, packetsRejected: handler.counters.rtpRejected, dataChannelOpenMs: dataChannelOpenMs,
                messagesSent: channelMessages.isEmpty ? nil : messagesSent,
                messagesReceived: channelMessages.isEmpty ? nil : messagesReceived.count,
                echoesInOrder: channelMessages.expectsEcho ? messagesReceived.map(\.text) == channelMessages.opening : nil,
                signallingMs: signallingMs,
                receivedTypes: signallingMs == nil ? nil : messagesReceived.map { ProbeChannelMessages.type(of: $0.text) ?? "?" },
                firstReplyMs: openedNanoseconds.flatMap { opened in
                    messagesReceived.first.map { Double($0.arrivalNanoseconds - opened) / 1_000_000 }
                })))
    }

    private func complete(_ outcome: Result<ProbeResult, any Error>) {
        guard !completed else { return }
        completed = true
        result.completeWith(outcome)
    }
}

enum ProbeError: Error, CustomStringConvertible {
    case notConnected
    case usage(String)

    var description: String {
        switch self {
        case .notConnected: return "not connected within 15 s"
        case .usage(let detail): return detail
        }
    }
}

/// What the probe sends on the data channel once it opens: `--messages N` numbered messages the
/// peer echoes, or Pipecat RTVI's `client-ready` (`--offer-url`); nothing without a channel.
struct ProbeChannelMessages: Sendable {
    var opening: [String]
    var expectsEcho: Bool

    var isEmpty: Bool { opening.isEmpty }

    static func numbered(_ count: Int) -> ProbeChannelMessages {
        ProbeChannelMessages(opening: (0..<count).map { "{\"vload\": \($0)}" }, expectsEcho: true)
    }

    static var rtviClientReady: ProbeChannelMessages {
        ProbeChannelMessages(opening: [PipecatRTVI.clientReady(id: "vload-probe")], expectsEcho: false)
    }

    /// A JSON object's `type`, nil for anything else.
    static func type(of text: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
        return object["type"] as? String
    }
}
