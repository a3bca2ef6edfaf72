import Testing
import VoiceLoad

@testable import AgentSimulator

/// The simulator's minimum speech for a barge-in (`--sim-barge-in-min-ms`). As in
/// SimulatorBargeInTests: the reply starts at 2100 and the user talks over it from the frame at
/// 2300, 600 ms into their stream, heard in the frame at 2340.
@Suite("SimulatorSession barge-in minimum speech")
struct SimulatorBargeInMinSpeechTests {
    private func speakingReply(minSpeechMs: Int) -> SessionScript {
        SessionScript.speakingReply { $0.bargeInMinSpeechMs = minSpeechMs }
    }

    @Test("speech over the agent shorter than the minimum is a backchannel: no signal, no answer, the agent speaks on")
    func backchannel() {
        var script = speakingReply(minSpeechMs: 600)
        // 400 ms of speech, then silence long enough to end it.
        #expect(script.feed(loud: true, from: 2_300, count: 10).isEmpty)
        #expect(script.feed(loud: false, from: 2_700, count: 10).isEmpty)
        #expect(script.agent.stream != nil && !script.agent.replyPending)
        #expect(script.agent.statistics.interruptions == 0)
    }

    @Test("speech over the agent barges in once it has lasted the minimum")
    func longEnough() {
        var script = speakingReply(minSpeechMs: 300)
        let heard = script.feed(loud: true, from: 2_300, count: 10)
        // The frame at 2580 ends 320 ms of voiced audio from its start at 600 ms.
        #expect(heard.map(\.at) == [2_580])
        #expect(
            heard.first?.actions.prefix(4) == [
                .send(.userSpeechStarted(audioMs: 600)), .cancel(.nextChunk), .send(.interrupted),
                .send(.responseCancelled(turnKey: "resp_sim-1_1")),
            ]
        )
        #expect(script.agent.stream == nil && script.agent.statistics.interruptions == 1)
    }

    @Test("with no minimum, speech barges in as soon as the agent's VAD hears it")
    func noMinimum() {
        var script = speakingReply(minSpeechMs: 0)
        #expect(script.feed(loud: true, from: 2_300, count: 5).map(\.at) == [2_340])
        #expect(script.agent.statistics.interruptions == 1)
    }

    @Test("speech to a silent agent is a turn, whatever the minimum")
    func silentAgent() {
        var script = SessionScript { $0.bargeInMinSpeechMs = 600 }
        script.start()
        #expect(script.feed(loud: true, from: 1_040, count: 3).first?.actions.first == .send(.userSpeechStarted(audioMs: 0)))
    }
}
