import NIOCore
import RTP
import VoiceLoad
import WSCore
import WebRTC

/// Drives one WebRTC session's `SimulatorSession` (the same state machine as a WebSocket
/// session's) from its `WebRTCAnswerHandler`, on that session's event loop: the data channel's
/// RTVI messages and the caller's decoded Opus in, the dialect's messages on the channel and the
/// reply's shared Opus packets as RTP out. The reply's packets after its first, and the frames of
/// silence an agent that streams it sends between turns (`idleSilencePacket`, from the transport's
/// connect on), are paced by the loop's `FramePacer`, as a WebSocket session's chunks are: one
/// NIO timer for every call on the loop, not one per packet per call. The other timers, a few a
/// turn, are NIO timers, so a reply's first packet leaves exactly when its latency is up. Reply
/// and silence are one RTP stream: sequence numbers +1 and timestamps +960 a packet, as aiortc's
/// sender numbers a track's frames. The session opens when the caller's data channel does, and
/// ends when the caller hangs up (its close_notify or SCTP ABORT: at once), the transport fails
/// (a caller silent for 3 s is gone) or the session closes itself.
///
/// Used on its event loop only (the answerer makes it there, and the handler, the timers and the
/// pacer call it there): that is what makes it `Sendable`, as `FramePacer` is.
final class SimulatorWebRTCCall: SimulatorClockedStream, @unchecked Sendable {
    private var session: SimulatorSession
    private var codec: any ServerCodec
    private let audio: ReplyAudio
    private var decoder: OpusPacketDecoder
    private var packetizer: RTPPacketizer
    /// The codec's delay (libopus's lookahead, 312 samples): the decoded stream runs this far
    /// behind the caller's. It is skipped at the stream's start (RFC 7845 §4.2's pre-skip), so
    /// positions in what the VAD hears are the caller's, and each packet's arrival is taken this
    /// much earlier: the last sample it completes was spoken that long before it arrived.
    private let decoderLagNanoseconds: Int64
    private var preSkipSamples: Int
    private let slowdown: @Sendable () -> Double
    private let onFinish: @Sendable (SimulatorStatistics, [Int64]) -> Void
    private var clocks: SimulatorSessionClocks
    /// 20 ms of digital silence as one Opus packet, encoded once per run (`IdleSilence`); nil
    /// for an agent that sends nothing between its turns.
    private let idleSilencePacket: [UInt8]?

    private var finished = false
    /// Set once the handler exists (it reports to this call); the channel, to close it.
    var handler: WebRTCAnswerHandler?
    var channel: (any Channel)?

    init(
        eventLoop: any EventLoop, session makeSession: (_ streamsSilenceWhileIdle: Bool) -> SimulatorSession,
        codec: any ServerCodec, audio: ReplyAudio, idleSilencePacket: [UInt8]?,
        pacer: FramePacer, payloadType: UInt8, ssrcSeed: UInt64, decoderLagSamples: Int, slowdown: @escaping @Sendable () -> Double,
        onFinish: @escaping @Sendable (SimulatorStatistics, [Int64]) -> Void
    ) throws(OpusError) {
        // One source of truth: the session streams silence exactly when this call has a packet of it.
        self.session = makeSession(idleSilencePacket != nil)
        self.codec = codec
        self.audio = audio
        self.idleSilencePacket = idleSilencePacket
        self.clocks = SimulatorSessionClocks(eventLoop: eventLoop, pacer: pacer)
        self.decoder = try OpusPacketDecoder()
        var generator = SeededGenerator(seed: ssrcSeed)
        self.packetizer = RTPPacketizer(payloadType: payloadType, generator: &generator)
        self.preSkipSamples = decoderLagSamples
        self.decoderLagNanoseconds = Int64(decoderLagSamples) * 1_000_000_000 / Int64(OpusClip.sampleRateHz)
        self.slowdown = slowdown
        self.onFinish = onFinish
    }

    func handle(_ event: WebRTCTransportEvent) {
        guard !finished else { return }
        switch event {
        case .connected:
            perform(session.mediaStarted(at: .now()))
        case .dataChannelOpen:
            session.slowdown = slowdown()
            perform(session.opened(at: .now()))
        case .dataChannelText(let text, let arrivalNanoseconds):
            receive(.text(text), at: MonotonicInstant(nanoseconds: arrivalNanoseconds))
        case .dataChannelBinary(let bytes, let arrivalNanoseconds):
            receive(.binary(bytes), at: MonotonicInstant(nanoseconds: arrivalNanoseconds))
        case .rtp(let packet, let arrivalNanoseconds):
            // The session hears audio once it is live; a packet before then is not decoded, so
            // the pre-skip falls on the first packet it hears, and its VAD's 10 ms windows start
            // on the stream's frame grid, as the caller's truth does (a caller streams silence
            // from the call's open, before the session is ready).
            guard session.phase == .live else { return }
            // PCM16 in host byte order, little-endian on every platform vload builds for (as the
            // caller's side takes it, `WebRTCCallSession.receive`).
            guard let pcm = try? decoder.decodePCM16(packet.payload, preSkip: &preSkipSamples) else { return }
            let spokenAt = MonotonicInstant(nanoseconds: arrivalNanoseconds).advanced(byNanoseconds: -decoderLagNanoseconds)
            receive(.binary(pcm), at: spokenAt)
        case .hungUp, .failed:
            finish()
        }
    }

    private func receive(_ frame: WireFrame, at instant: MonotonicInstant) {
        guard let intents = try? codec.receive(frame) else { return }
        session.slowdown = slowdown()
        for intent in intents { perform(session.receive(intent, at: instant)) }
    }

    /// Performs `actions` in order, except that the audio goes first: RTP and the data channel
    /// are separate flows with no order between them on the wire, and a message on the channel
    /// costs SCTP and DTLS before it leaves. With a turn's start message first, each reply falling
    /// due at one instant on a loop (a run's callers in step) would wait for the messages of the
    /// replies before it, not only for their packets (docs/webrtc.md, "When a packet arrived").
    private func perform(_ actions: [SimulatorSession.Action]) {
        for action in actions where action.isAudio { perform(action) }
        for action in actions where !action.isAudio { perform(action) }
    }

    private func perform(_ action: SimulatorSession.Action) {
        if clocks.perform(action, for: self) { return }
        switch action {
        case .send(let output):
            for case .text(let text) in codec.frames(for: output) { handler?.send(text: text) }
        case .sendChunk(let clip, let index):
            guard let frame = audio.chunks[clip]?[index].sharedFrame else { return }
            let payload = Array(frame.payload.readableBytesView)
            handler?.send(packetizer.packet(payload: payload, timestampStepSamples: UInt32(OpusClip.frameSamples)))
        case .sendIdleSilence:
            guard let idleSilencePacket else { return }
            handler?.send(packetizer.packet(payload: idleSilencePacket, timestampStepSamples: UInt32(OpusClip.frameSamples)))
        case .schedule, .cancel:
            break  // the clocks ran it
        case .close:
            channel?.close(promise: nil)
            finish()
        case .sendInvalid(.malformedJSON):
            handler?.send(text: FaultFrames.malformedText)
        case .sendInvalid(.oversized):
            break  // refused at start over WebRTC
        }
    }

    /// The pacer's call, on the loop: the chunk or frame of silence queued with `token` is due.
    func pacingDue(token: Int) {
        guard clocks.isCurrent(chunkToken: token), !finished else { return }
        fire(.nextChunk)
    }

    /// A NIO timer's call, on the loop.
    func timerDue(_ timer: SimulatorSession.Timer) { fire(timer) }

    private func fire(_ timer: SimulatorSession.Timer) {
        clocks.fired(timer)
        guard !finished else { return }
        session.slowdown = slowdown()
        perform(session.timerFired(timer, at: .now()))
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        clocks.stop()
        channel?.close(promise: nil)
        var statistics = session.statistics
        statistics.sessions = 1
        onFinish(statistics, session.replyLatenessUs)
    }
}

extension SimulatorSession.Action {
    /// An RTP packet of the agent's audio (a reply's chunk or the idle silence).
    fileprivate var isAudio: Bool {
        switch self {
        case .sendChunk, .sendIdleSilence: return true
        default: return false
        }
    }
}
