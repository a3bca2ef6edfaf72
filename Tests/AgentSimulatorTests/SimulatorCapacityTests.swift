import Testing
import VoiceLoad

@testable import AgentSimulator

/// The capacity model: K workers shared by the open sessions; beyond K every agent-side delay
/// is stretched by N/K at the moment it starts. The utterance of `SessionScript` ends at 1400.
@Suite("Simulator capacity model")
struct SimulatorCapacityTests {
    @Test("the slowdown is N/K beyond K workers, 1 within them and with unlimited workers")
    func slowdown() {
        var configuration = SimulatorConfiguration()
        #expect(configuration.slowdown(openSessions: 10_000) == 1)
        configuration.workers = 120
        #expect(configuration.slowdown(openSessions: 0) == 1)
        #expect(configuration.slowdown(openSessions: 120) == 1)
        #expect(configuration.slowdown(openSessions: 150) == 1.25)
        #expect(configuration.slowdown(openSessions: 240) == 2)
        #expect(configuration.summary["workers"] == "120")
        #expect(SimulatorConfiguration().summary["workers"] == "unlimited")
    }

    @Test("workers must be at least 1")
    func validation() {
        var configuration = SimulatorConfiguration()
        configuration.workers = 0
        #expect(throws: InputError.self) { try configuration.validate() }
        configuration.workers = 1
        #expect(throws: Never.self) { try configuration.validate() }
    }

    @Test("ready and greeting delays are stretched by the slowdown when they start")
    func readyAndGreeting() {
        var script = SessionScript { $0.greets = true }
        script.agent.slowdown = 1.5
        #expect(script.receive(.start(parameters: [:]), at: 0).last == .schedule(.ready, at: SessionScript.at(150)))
        script.agent.slowdown = 2
        #expect(script.fire(.ready, at: 150) == [.send(.ready), .schedule(.greeting, at: SessionScript.at(550))])
    }

    @Test("the reply latency is stretched from the end of speech; a later change leaves it alone")
    func replyLatency() {
        var script = SessionScript()
        script.start()
        script.agent.slowdown = 128.0 / 120.0
        // 700 ms × 128/120 = 746.667 ms after the end of speech at 1400.
        let due = SessionScript.at(1_400).advanced(byMicroseconds: 746_667)
        #expect(script.utterance().last == .schedule(.reply, at: due))
        script.agent.slowdown = 1
        #expect(script.agent.timerFired(.reply, at: due).first == .send(.agentTurnStarted(turnKey: "resp_sim-1_1", latencyMs: 746)))
    }

    @Test("within capacity nothing changes")
    func withinCapacity() {
        var script = SessionScript()
        script.start()
        script.agent.slowdown = 1
        #expect(script.utterance().last == .schedule(.reply, at: SessionScript.at(2_100)))
    }

    @Test("a server-side tool's latency is stretched too")
    func toolLatency() {
        var script = SessionScript {
            $0.toolCall = "search_docs"
            $0.toolLatencyMs = 300
        }
        script.start()
        _ = script.utterance()
        script.agent.slowdown = 2
        #expect(script.fire(.reply, at: 2_100).last == .schedule(.toolDone, at: SessionScript.at(2_700)))
    }
}
