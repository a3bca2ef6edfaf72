import Testing
import WSCore

@testable import VoiceLoad

/// A WebRTC call that may be recorded keeps the agent's Opus packets, not their decoded audio,
/// and its recording decodes them again after the call: what it writes must be what the caller
/// heard, sample for sample, at a fraction of the memory.
@Suite("Recordings: a WebRTC call's agent audio kept as its Opus packets")
struct OpusPacketCaptureTests {
    typealias Fixture = RecordingFixture

    /// A Pipecat bot's stream: its 3-byte silent frame, hello.wav at aiortc's 96 kbit/s, silence
    /// again, the first 300 ms of hello.wav, silence.
    static func botStream() throws -> [[UInt8]] {
        let source = try WAVReader.read(path: repositoryRoot() + "/scenarios/audio/hello.wav")
        let samples = try Resampler.resample(source, toRateHz: OpusClip.sampleRateHz).samples
        var encoder = try OpusFrameEncoder()
        try encoder.setBitrate(bitsPerSecond: 96_000)
        let frame = OpusClip.frameSamples
        let speech = try stride(from: 0, to: samples.count - frame, by: frame).map { try encoder.encode(samples[$0..<($0 + frame)]) }
        var quiet = try OpusFrameEncoder()
        try quiet.setBitrate(bitsPerSecond: 96_000)
        let silence = try quiet.encode([Int16](repeating: 0, count: frame)[...])
        #expect(silence.count == 3)
        let gap = [[UInt8]](repeating: silence, count: 10)
        return gap + speech + gap + Array(speech.prefix(15)) + gap
    }

    /// `packets` arriving 20 ms apart from 100 ms at a recording `pipecat-webrtc` attempt, each
    /// decoded as `WebRTCCallSession` decodes them and handed over with its payload when
    /// `withPayloads`; the first five arrive before the open and are held.
    static func capture(_ packets: [[UInt8]], withPayloads: Bool, capBytes: Int = 10_000_000) throws -> AgentAudioCapture {
        var attempt = CallAttempt(
            codec: PipecatWebRTCClientCodec(),
            tracker: TurnTracker.Configuration(),
            client: 0,
            iteration: 0,
            agentAudioCaptureBytes: capBytes
        )
        var decoder = try OpusPacketDecoder()
        for (index, packet) in packets.enumerated() {
            let at = Fixture.at(100 + 20 * Int64(index))
            if index == 5 { _ = attempt.connectionOpened(at: at, now: at) }
            let pcm = try decoder.decodePCM16(packet)
            _ = attempt.frameArrived(.binary(pcm), at: at, mediaPayload: withPayloads ? packet : nil, now: at)
        }
        let capture = attempt.takeAgentCapture()
        return try #require(capture)
    }

    static func rendered(_ capture: AgentAudioCapture, callMs: Int64) throws -> CallRecordingAudio {
        var recording = CallRecording(client: 0, iteration: 0)
        recording.connectStarted(at: Fixture.at(0))
        recording.attemptEnded(agentAudio: capture)
        let call = try #require(recording.finished(session: SessionRecord(client: 0, iteration: 0), endedAt: Fixture.at(callMs)))
        return CallRecordingAudio(call)
    }

    @Test("the recording decodes the packets again to what the caller decoded, sample for sample, from a sixth of the bytes or less")
    func sameAudio() throws {
        let packets = try Self.botStream()
        let callMs = 200 + 20 * Int64(packets.count)
        let decoded = try Self.capture(packets, withPayloads: false)
        let kept = try Self.capture(packets, withPayloads: true)
        #expect(decoded.packets.count == 0)
        #expect(kept.packets.count == packets.count)
        #expect(kept.capturedBytes == packets.reduce(0) { $0 + $1.count + OpusPacketLog.bytesPerPacket })
        #expect(kept.played.count == decoded.played.count && kept.played.count > 40)
        #expect(kept.played.map(\.startsAt) == decoded.played.map(\.startsAt))
        #expect(kept.capturedBytes * 6 < decoded.capturedBytes, "kept \(kept.capturedBytes) B, decoded \(decoded.capturedBytes) B")
        let fromPCM = try Self.rendered(decoded, callMs: callMs)
        let fromPackets = try Self.rendered(kept, callMs: callMs)
        #expect(fromPackets.sampleRateHz == 48_000)
        #expect(fromPackets.right == fromPCM.right)
        #expect(fromPackets.right.contains { abs(Int($0)) > 1_000 })
    }

    @Test("past the cap no packet is kept, not even a smaller one, and the agent's side stops at the first chunk without one")
    func cap() throws {
        let packets = try Self.botStream()
        let callMs = 200 + 20 * Int64(packets.count)
        let fitting = 30
        let keptBytes = packets.prefix(fitting).reduce(0) { $0 + $1.count + OpusPacketLog.bytesPerPacket }
        // Room for a 3-byte silent frame after the 30th packet, none for the speech that follows
        // it: the silences after that speech would fit, and must not be kept.
        let capBytes = keptBytes + 3 + OpusPacketLog.bytesPerPacket
        #expect(packets[fitting].count > 3)
        let kept = try Self.capture(packets, withPayloads: true, capBytes: capBytes)
        let whole = try Self.capture(packets, withPayloads: true)
        #expect(kept.packets.count == fitting)
        #expect(kept.capturedBytes == keptBytes)
        // Packets 10 and on are speech, each a chunk: the first 20 are kept, the 21st is the cut.
        let cut = try #require(kept.cutAt)
        #expect(kept.played.count == fitting - 10)
        #expect(cut == whole.played[fitting - 10].startsAt)
        let cutSample = Int(cut.microseconds(since: Fixture.at(0)) * 48 / 1_000)
        let partial = try Self.rendered(kept, callMs: callMs).right
        let full = try Self.rendered(whole, callMs: callMs).right
        #expect(partial[..<cutSample] == full[..<cutSample])
        #expect(partial[cutSample...].allSatisfy { $0 == 0 })
        #expect(full[cutSample...].contains { $0 != 0 })
    }
}
