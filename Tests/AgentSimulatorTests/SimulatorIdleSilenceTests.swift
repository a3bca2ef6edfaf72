import Testing
import WSCore

@testable import AgentSimulator
@testable import VoiceLoad

/// The silence a Pipecat WebRTC bot streams between its turns (`SimulatorSession+IdleSilence`),
/// on synthetic time: a frame every 20 ms from the transport's connect, handed to the reply and
/// back on the one pacing timer.
@Suite("SimulatorSession: silence while idle")
struct SimulatorIdleSilenceTests {
    private typealias Action = SimulatorSession.Action

    /// A Pipecat WebRTC bot's session: 20 ms reply chunks (50 of them, 1 s), silence while idle.
    private func bot() -> SessionScript {
        SessionScript(streamsSilenceWhileIdle: true) { $0.replyChunkMs = 20 }
    }

    /// A bot whose media started at 0, that heard one utterance and started its reply at 2100
    /// (due then: the end of speech at 1400 plus 700 ms); the reply's first actions.
    private func botReplying() -> (script: SessionScript, reply: [Action]) {
        var script = bot()
        _ = script.agent.mediaStarted(at: at(0))
        script.start()
        _ = script.utterance()
        let reply = script.fire(.reply, at: 2_100)
        return (script, reply)
    }

    private func at(_ ms: Int64, plusUs us: Int64 = 0) -> MonotonicInstant {
        SessionScript.at(ms).advanced(byMicroseconds: us)
    }

    @Test("from the connect, a frame of silence every 20 ms on its own grid; a timer a frame late skips, not bursts")
    func silenceFromConnect() {
        var script = bot()
        #expect(script.agent.mediaStarted(at: at(0)) == [.sendIdleSilence, .schedule(.nextChunk, at: at(20))])
        // Media starts once a call.
        #expect(script.agent.mediaStarted(at: at(5)) == [])
        #expect(script.fire(.nextChunk, at: 20) == [.sendIdleSilence, .schedule(.nextChunk, at: at(40))])
        // A pacer that wakes 300 µs late keeps the grid.
        #expect(script.agent.timerFired(.nextChunk, at: at(40, plusUs: 300)) == [.sendIdleSilence, .schedule(.nextChunk, at: at(60))])
        // Due at 60, fired at 95: the frames of 60 and 80 are one frame, the next a frame on.
        #expect(script.fire(.nextChunk, at: 95) == [.sendIdleSilence, .schedule(.nextChunk, at: at(115))])
    }

    @Test("the reply takes the timer over when its latency is up, and the silence resumes where its next chunk would have gone")
    func replyBetweenSilence() {
        // The reply's first chunk leaves when it is due, and the timer is the reply's.
        let replying = botReplying()
        var script = replying.script
        let reply = replying.reply
        #expect(reply.contains(.sendChunk(.reply, index: 0)) && reply.last == .schedule(.nextChunk, at: at(2_120)))
        #expect(!reply.contains(.sendIdleSilence))
        for index in 1..<49 {
            let due = 2_100 + 20 * Int64(index)
            #expect(script.fire(.nextChunk, at: due) == [.sendChunk(.reply, index: index), .schedule(.nextChunk, at: at(due + 20))])
        }
        let key = "resp_sim-1_1"
        #expect(
            script.fire(.nextChunk, at: 3_080) == [
                .sendChunk(.reply, index: 49), .schedule(.nextChunk, at: at(3_100)),
                .send(.agentAudioDone(turnKey: key)), .send(.turnComplete(turnKey: key)),
            ])
        #expect(script.fire(.nextChunk, at: 3_100) == [.sendIdleSilence, .schedule(.nextChunk, at: at(3_120))])
    }

    @Test("a reply cut off (the call stops) gives the timer back to the silence at its next chunk's time")
    func cutReply() {
        var script = botReplying().script
        _ = script.fire(.nextChunk, at: 2_120)
        _ = script.fire(.nextChunk, at: 2_140)
        let stopped = script.receive(.stop, at: 2_150)
        #expect(stopped.contains(.schedule(.nextChunk, at: at(2_160))) && !stopped.contains(.cancel(.nextChunk)))
        #expect(script.fire(.nextChunk, at: 2_160) == [.sendIdleSilence, .schedule(.nextChunk, at: at(2_180))])
    }

    @Test("an agent that sends nothing between turns: media starting changes nothing, a cut reply stops the timer")
    func quietAgent() {
        var script = SessionScript { $0.replyChunkMs = 20 }
        #expect(script.agent.mediaStarted(at: at(0)) == [])
        script.start()
        _ = script.utterance()
        _ = script.fire(.reply, at: 2_100)
        #expect(script.receive(.stop, at: 2_110).contains(.cancel(.nextChunk)))
        #expect(script.fire(.nextChunk, at: 2_120) == [])
    }
}

/// The packet of silence itself (`IdleSilence`): encoded once, what a real Pipecat bot's aiortc
/// sends for it, and nothing vload's caller counts as agent audio.
@Suite("IdleSilence: the packet")
struct IdleSilencePacketTests {
    @Test("pipecat-webrtc: aiortc's 3-byte digital silence, decoding to exact zeros from the packet after voice's tail")
    func pipecatPacket() throws {
        let dialect = PipecatWebRTCServerDialect()
        let packet = try #require(IdleSilence.packet(for: dialect))
        // What aiortc 1.16 sends for a frame of zeros (its 96 kbit/s, mono): CELT's silent frame.
        #expect(packet == [0xF8, 0xFF, 0xFE], "\(packet)")
        // The simulator's reply (speech, which libopus codes in its hybrid mode), cut off halfway
        // as a barge-in cuts it, then silence: the packet after the voice brings its tail out,
        // and from the next one on every sample is 0, so the caller sees no agent audio in it
        // (`WebRTCCallerAudio.agentAudio`).
        var configuration = SimulatorConfiguration()
        configuration.replyChunkMs = OpusClip.frameMs
        let reply = try #require(try ReplyAudio(configuration: configuration, dialect: dialect).chunks[.reply])
        var decoder = try OpusPacketDecoder()
        for frame in reply.prefix(reply.count / 2) {
            _ = try decoder.decode(Array(try #require(frame.sharedFrame).payload.readableBytesView))
        }
        var silentFrames: [Bool] = []
        for _ in 0..<5 {
            let samples = try decoder.decode(packet)
            #expect(samples.count == OpusClip.frameSamples)
            let bytes = samples.withUnsafeBytes { Array($0) }
            silentFrames.append(WebRTCCallerAudio.agentAudio(bytes).events.isEmpty)
        }
        #expect(silentFrames.dropFirst().allSatisfy { $0 }, "\(silentFrames)")
    }

    @Test("openai-realtime-webrtc and the WebSocket dialects send nothing between turns")
    func otherDialects() throws {
        #expect(IdleSilence.packet(for: OpenAIRealtimeWebRTCServerDialect()) == nil)
        #expect(try IdleSilence.packet(for: DialectRegistry.server("pipecat-protobuf")) == nil)
    }
}
