import Testing
import VoiceLoad

@testable import AgentSimulator

/// Barge-in with a reaction time, ignored barge-in, and the client's interrupt command.
/// Every script speaks one utterance (speech ends at 1400), gets the reply at 2100 (50 chunks
/// of 40 ms, so it would last until 4100) and talks over it from the frame at 2300 (heard in
/// the frame at 2340, 600 ms into the user's stream).
@Suite("SimulatorSession barge-in")
struct SimulatorBargeInTests {
    private func speakingReply(_ configure: (inout SimulatorConfiguration) -> Void) -> SessionScript {
        SessionScript.speakingReply(configure)
    }

    @Test("the agent keeps streaming for the reaction time, then sends every interruption signal at once")
    func reactionTime() {
        var script = speakingReply { $0.bargeInReactionMs = 150 }
        let heard = script.feed(loud: true, from: 2_300, count: 5)
        #expect(heard.map(\.at) == [2_340])
        #expect(heard.first?.actions == [.schedule(.bargeIn, at: SessionScript.at(2_490))])
        #expect(script.fire(.nextChunk, at: 2_460).contains(.sendChunk(.reply, index: 9)))
        #expect(
            script.fire(.bargeIn, at: 2_490) == [
                .send(.userSpeechStarted(audioMs: 600)), .cancel(.nextChunk), .send(.interrupted),
                .send(.responseCancelled(turnKey: "resp_sim-1_1")),
            ]
        )
        #expect(script.agent.stream == nil && script.agent.statistics.interruptions == 1)
    }

    @Test("speech while the agent is silent is announced at once, whatever the reaction time")
    func speechToASilentAgent() {
        var script = SessionScript { $0.bargeInReactionMs = 150 }
        script.start()
        let heard = script.feed(loud: true, from: 1_040, count: 3)
        #expect(heard.map(\.at) == [1_080])
        #expect(heard.first?.actions == [.send(.userSpeechStarted(audioMs: 0))])
    }

    @Test("the partial transcript of speech that barges in comes after the reaction")
    func partialTranscriptAfterTheReaction() {
        var script = speakingReply {
            $0.bargeInReactionMs = 150
            $0.userTranscripts = true
        }
        #expect(
            script.feed(loud: true, from: 2_300, count: 5).first?.actions == [
                .schedule(.bargeIn, at: SessionScript.at(2_490)), .schedule(.userTranscript, at: SessionScript.at(2_740)),
            ]
        )
    }

    @Test("speech that ends before the agent reacted is reacted to at its end, before the new reply")
    func speechEndsFirst() {
        var script = speakingReply { $0.bargeInReactionMs = 1_000 }
        #expect(script.feed(loud: true, from: 2_300, count: 5).first?.actions == [.schedule(.bargeIn, at: SessionScript.at(3_340))])
        let ended = script.feed(loud: false, from: 2_500, count: 5)
        #expect(ended.map(\.at) == [2_660])
        #expect(
            ended.first?.actions == [
                .cancel(.bargeIn), .send(.userSpeechStarted(audioMs: 600)), .cancel(.nextChunk), .send(.interrupted),
                .send(.responseCancelled(turnKey: "resp_sim-1_1")), .send(.userSpeechStopped(audioMs: 800)),
                .schedule(.reply, at: SessionScript.at(3_160)),
            ]
        )
        #expect(script.fire(.bargeIn, at: 3_340) == [])
    }

    @Test("with barge-in off the agent speaks on, sends no signal, and answers when its turn is over")
    func ignored() {
        var script = speakingReply { $0.bargeIn = false }
        #expect(script.feed(loud: true, from: 2_300, count: 5).isEmpty)
        let ended = script.feed(loud: false, from: 2_500, count: 5)
        #expect(ended.first?.actions == [.send(.userSpeechStopped(audioMs: 800)), .schedule(.reply, at: SessionScript.at(3_160))])
        #expect(script.fire(.reply, at: 3_160) == [])
        #expect(script.agent.reply?.stage == .queued)
        let end = script.fire(.nextChunk, at: 4_100)
        #expect(end.contains(.send(.turnComplete(turnKey: "resp_sim-1_1"))))
        // After a pause, so that a client can tell the turns apart without end-of-turn events.
        #expect(end.last == .schedule(.queuedReply, at: SessionScript.at(5_100)))
        #expect(
            script.fire(.queuedReply, at: 5_100) == [
                .send(.agentTurnStarted(turnKey: "resp_sim-1_2", latencyMs: 2_640)), .sendChunk(.reply, index: 0),
                .schedule(.nextChunk, at: SessionScript.at(5_140)),
            ]
        )
        #expect(script.agent.statistics.interruptions == 0 && script.agent.statistics.replies == 2)
    }

    @Test("an interrupt command takes the same reaction time; repeats join it; with barge-in off it is ignored")
    func command() {
        for bargeIn in [true, false] {
            var script = SessionScript {
                $0.greets = true
                $0.bargeIn = bargeIn
                $0.bargeInReactionMs = 100
            }
            script.start()
            _ = script.fire(.greeting, at: 300)
            guard bargeIn else {
                #expect(script.receive(.interrupt, at: 350) == [])
                #expect(script.agent.stream != nil)
                continue
            }
            #expect(script.receive(.interrupt, at: 350) == [.schedule(.bargeIn, at: SessionScript.at(450))])
            #expect(script.receive(.interrupt, at: 360) == [])
            #expect(
                script.fire(.bargeIn, at: 450) == [
                    .cancel(.nextChunk), .send(.interrupted), .send(.responseCancelled(turnKey: "resp_sim-1_1")),
                ]
            )
        }
    }
}
