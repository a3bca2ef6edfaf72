import Testing

@testable import VoiceLoad

@Suite("Recordings: the agent's audio as the caller's playback played it")
struct AgentAudioCaptureTests {
    typealias Script = AttemptScript

    private func capturingScript() -> Script {
        var script = Script()
        script.attempt = CallAttempt(
            codec: Script.Codec(),
            tracker: TurnTracker.Configuration(),
            client: 0,
            iteration: 0,
            agentAudioCaptureBytes: 1_000_000
        )
        script.ready(at: 0)
        return script
    }

    @Test("chunks are kept where playback starts them; a gap within a turn is a stall")
    func placement() throws {
        var script = capturingScript()
        script.agentAudio(from: 100, count: 3, everyMs: 0)  // faster than real time: 100–220 ms
        _ = script.receive(.agentAudio(Script.chunk()), at: 300)  // after an underrun
        let taken = script.attempt.takeAgentCapture()
        let capture = try #require(taken)
        #expect(capture.played.map(\.startsAt) == [100, 140, 180, 300].map(Script.at))
        #expect(capture.played.map(\.queuedAt) == [100, 100, 100, 300].map(Script.at))
        #expect(capture.stalls == [AgentAudioCapture.Stall(from: Script.at(220), until: Script.at(300))])
        #expect(capture.capturedBytes == 4 * 1_280)
        // The attempt goes on capturing afresh.
        let next = script.attempt.takeAgentCapture()
        #expect(next?.played.isEmpty == true)
    }

    @Test("an acknowledged barge-in cuts what was queued: a chunk at the flush, the next not at all")
    func flush() throws {
        var script = capturingScript()
        script.agentAudio(from: 100, count: 3, everyMs: 0)
        _ = script.receive(.agentInterrupted, at: 150)
        let taken = script.attempt.takeAgentCapture()
        let capture = try #require(taken)
        #expect(capture.flushes == [Script.at(150)])
        #expect(capture.played.map { capture.audibleEnd(of: $0) } == [Script.at(140), Script.at(150), nil])
    }

    @Test("an attempt that does not record keeps nothing")
    func notRecording() {
        var script = Script()
        script.ready(at: 0)
        script.agentAudio(from: 100, count: 3, everyMs: 0)
        let taken = script.attempt.takeAgentCapture()
        #expect(taken == nil)
    }

    @Test("past its cap a call keeps no more agent audio, and says where it stopped")
    func cap() {
        var capture = AgentAudioCapture(maxCapturedBytes: 2 * 1_280)
        for index in 0..<3 {
            let end = Script.at(140 + 40 * Int64(index))
            capture.chunkArrived(
                Script.chunk(),
                at: Script.at(100),
                drainsBefore: index == 0 ? nil : end.advanced(byMicroseconds: -40_000),
                drainsAfter: end,
                turn: 1
            )
        }
        #expect(capture.played.count == 2)
        #expect(capture.cutAt == Script.at(180))
    }
}
