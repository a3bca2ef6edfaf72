import Testing
import VoiceLoad

@testable import AgentSimulator

@Suite("Simulator: manual turns (OpenAI turn_detection null)")
struct SimulatorManualTurnTests {
    /// A session whose client asked for manual turns, ready at 100 ms.
    private func manualSession() -> SessionScript {
        var script = SessionScript()
        _ = script.receive(.start(parameters: ["audio": .object(["input": .object(["turn_detection": .null])])]), at: 0)
        _ = script.fire(.ready, at: 100)
        return script
    }

    @Test("no VAD events and no reply until the commit; then the reply is due 700 ms after the speech ended")
    func replyOnCommit() {
        var script = manualSession()
        #expect(script.agent.manualTurns)
        #expect(script.utterance().isEmpty)  // speech ends at 1400 (heard at 1600): nothing sent
        #expect(script.receive(.commit, at: 1_700) == [.schedule(.reply, at: SessionScript.at(2_100))])
        #expect(script.agent.reply?.dueAt == SessionScript.at(2_100))
    }

    @Test("a commit after the drawn latency is answered at once, due from the commit")
    func lateCommit() {
        var script = manualSession()
        _ = script.utterance()
        #expect(script.receive(.commit, at: 2_500) == [.schedule(.reply, at: SessionScript.at(2_500))])
        #expect(script.agent.reply?.dueAt == SessionScript.at(2_500))
    }

    @Test("a commit before the VAD's silence window ends the speech at its last voiced audio")
    func earlyCommit() {
        var script = manualSession()
        _ = script.feed(loud: true, from: 1_040, count: 10)  // speech until 1400
        _ = script.feed(loud: false, from: 1_440, count: 2)  // 80 ms of silence: the VAD has not decided
        #expect(script.receive(.commit, at: 1_500) == [.schedule(.reply, at: SessionScript.at(2_100))])
        _ = script.feed(loud: false, from: 1_520, count: 5)  // the VAD ends the committed speech: nothing new
        #expect(script.agent.uncommittedSpeechEndedAt == nil)
    }

    @Test("with server VAD a commit changes nothing and the VAD answers")
    func serverVAD() {
        var script = SessionScript()
        script.start()
        #expect(!script.agent.manualTurns)
        #expect(!script.utterance().isEmpty)
        #expect(script.receive(.commit, at: 1_700) == [])
    }
}
