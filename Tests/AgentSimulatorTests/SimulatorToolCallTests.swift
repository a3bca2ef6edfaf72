import Testing
import VoiceLoad

@testable import AgentSimulator

/// Tool calls before each reply, and the user's transcripts. The utterance ends at 1400 and
/// the reply latency (700 ms) is over at 2100.
@Suite("SimulatorSession tool calls and user transcripts")
struct SimulatorToolCallTests {
    private static let arguments = #"{"city":"Oslo"}"#

    private func clientSideTool() -> SessionScript {
        var script = SessionScript(awaitsToolResults: true) {
            $0.toolCall = "get_weather"
            $0.toolArguments = Self.arguments
        }
        script.start()
        _ = script.utterance()
        return script
    }

    @Test("a client-side tool: the call, the client's result, then the reply after the tool latency")
    func clientSide() {
        var script = clientSideTool()
        #expect(
            script.fire(.reply, at: 2_100) == [
                .send(.toolCall(name: "get_weather", status: "requested", id: "call_sim-1_1", arguments: Self.arguments)),
                .schedule(.toolResultTimeout, at: SessionScript.at(7_100)),
            ]
        )
        #expect(script.receive(.toolResult(callID: "call_other", name: "", output: ""), at: 2_200) == [])
        #expect(
            script.receive(.toolResult(callID: "call_sim-1_1", name: "get_weather", output: "sunny"), at: 2_300) == [
                .cancel(.toolResultTimeout), .schedule(.toolDone, at: SessionScript.at(2_500)),
            ]
        )
        #expect(
            script.fire(.toolDone, at: 2_500).prefix(2) == [
                .send(.agentTurnStarted(turnKey: "resp_sim-1_1", latencyMs: 1_100)), .sendChunk(.reply, index: 0),
            ]
        )
        let statistics = script.agent.statistics
        #expect(statistics.toolCalls == 1 && statistics.toolResults == 2 && statistics.toolResultTimeouts == 0)
        #expect(statistics.replies == 1)
    }

    @Test("no result in time: the agent answers anyway and counts it")
    func timeout() {
        var script = clientSideTool()
        _ = script.fire(.reply, at: 2_100)
        #expect(
            script.fire(.toolResultTimeout, at: 7_100).prefix(2) == [
                .send(.agentTurnStarted(turnKey: "resp_sim-1_1", latencyMs: 5_700)), .sendChunk(.reply, index: 0),
            ]
        )
        #expect(script.receive(.toolResult(callID: "call_sim-1_1", name: "get_weather", output: "late"), at: 7_200) == [])
        #expect(script.agent.statistics.toolResultTimeouts == 1 && script.agent.statistics.toolResults == 1)
    }

    @Test("a server-side tool is announced started, then completed after the tool latency, and the reply follows")
    func serverSide() {
        var script = SessionScript {
            $0.toolCall = "search_docs"
            $0.toolLatencyMs = 300
        }
        script.start()
        _ = script.utterance()
        #expect(
            script.fire(.reply, at: 2_100) == [
                .send(.toolCall(name: "search_docs", status: "started", id: "call_sim-1_1", arguments: "{}")),
                .schedule(.toolDone, at: SessionScript.at(2_400)),
            ]
        )
        #expect(
            script.fire(.toolDone, at: 2_400).prefix(3) == [
                .send(.toolCall(name: "search_docs", status: "completed", id: "call_sim-1_1", arguments: "{}")),
                .send(.agentTurnStarted(turnKey: "resp_sim-1_1", latencyMs: 1_000)), .sendChunk(.reply, index: 0),
            ]
        )
    }

    @Test("the greeting calls no tool")
    func greeting() {
        var script = SessionScript {
            $0.greets = true
            $0.toolCall = "search_docs"
        }
        script.start()
        #expect(script.fire(.greeting, at: 300).first == .send(.agentTurnStarted(turnKey: "resp_sim-1_1", latencyMs: 0)))
        #expect(script.agent.statistics.toolCalls == 0)
    }

    @Test("talking over a pending tool call drops it; the next reply calls the tool again")
    func bargeInDuringTheCall() {
        var script = clientSideTool()
        _ = script.fire(.reply, at: 2_100)
        #expect(
            script.feed(loud: true, from: 2_300, count: 5).first?.actions == [
                .send(.userSpeechStarted(audioMs: 600)), .cancel(.toolResultTimeout),
            ]
        )
        #expect(script.receive(.toolResult(callID: "call_sim-1_1", name: "get_weather", output: "stale"), at: 2_400) == [])
        _ = script.feed(loud: false, from: 2_500, count: 5)
        #expect(
            script.fire(.reply, at: 3_160).first
                == .send(.toolCall(name: "get_weather", status: "requested", id: "call_sim-1_2", arguments: Self.arguments))
        )
    }

    @Test("user transcripts: a partial soon after speech starts, the final one at its end before the reply")
    func userTranscripts() {
        var script = SessionScript { $0.userTranscripts = true }
        script.start()
        let started = script.feed(loud: true, from: 1_040, count: 10)
        #expect(started.map(\.at) == [1_080])
        #expect(
            started.first?.actions == [
                .send(.userSpeechStarted(audioMs: 0)), .schedule(.userTranscript, at: SessionScript.at(1_330)),
            ]
        )
        #expect(
            script.fire(.userTranscript, at: 1_330) == [
                .send(.transcript(TranscriptLine(role: "user", text: SimulatorSession.partialTranscriptText, isFinal: false)))
            ]
        )
        #expect(
            script.feed(loud: false, from: 1_440, count: 5).flatMap(\.actions) == [
                .send(.userSpeechStopped(audioMs: 400)),
                .send(.transcript(TranscriptLine(role: "user", text: SimulatorSession.transcriptText))),
                .schedule(.reply, at: SessionScript.at(2_100)),
            ]
        )
    }

    @Test("a partial transcript not yet sent when speech ends is cancelled; transcripts can be turned off")
    func shortSpeechAndOff() {
        var script = SessionScript { $0.userTranscripts = true }
        script.start()
        let actions = script.utterance()
        #expect(actions.contains(.cancel(.userTranscript)))
        #expect(script.fire(.userTranscript, at: 1_330) == [])
        var quiet = SessionScript()
        quiet.start()
        #expect(
            !quiet.utterance().contains { action in
                if case .send(.transcript) = action { return true }
                return action == .schedule(.userTranscript, at: SessionScript.at(1_330))
            }
        )
    }
}
