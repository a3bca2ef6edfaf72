import Testing
import WSCore

@testable import VoiceLoad

/// What the scenario's steps decide through a `CallAttempt`, on synthetic time: the
/// conditions of `wait` steps, utterances and their censoring, barge-ins by speech and by
/// command, tool replies, and the end of an attempt.
@Suite("Call attempt: steps")
struct CallAttemptStepTests {
    typealias Script = AttemptScript

    /// The single row in `actions`, if they hold exactly one.
    private func onlyRow(_ actions: [Script.Action]) -> TurnRecord? {
        let rows = actions.compactMap { action -> TurnRecord? in
            if case .emit(let row) = action { return row }
            return nil
        }
        return rows.count == 1 ? rows[0] : nil
    }

    @Test("wait: greeting's grace counts from ready, or from the step when not ready yet")
    func greetingCondition() {
        var script = Script()
        #expect(script.attempt.condition(for: .greeting, graceMs: 500, at: Script.at(300)) == .greeting(graceEndsAt: Script.at(800)))
        script.ready(at: 100)
        #expect(script.attempt.condition(for: .greeting, graceMs: 500, at: Script.at(300)) == .greeting(graceEndsAt: Script.at(600)))
    }

    @Test("wait: agent_turn_end waits for the latest utterance's answer, or with none waiting for the next turn's end")
    func agentTurnEndCondition() {
        var script = Script()
        #expect(script.attempt.condition(for: .agentTurnEnd, graceMs: 500, at: Script.at(0)) == .agentTurnsEnded(1))
        script.utterance(speechStartMs: 100, speechEndMs: 400)
        #expect(script.attempt.condition(for: .agentTurnEnd, graceMs: 500, at: Script.at(500)) == .latestUtteranceRecorded)
        #expect(script.attempt.condition(for: .quiet(ms: 700), graceMs: 500, at: Script.at(500)) == .quiet(ms: 700, since: Script.at(500)))
        #expect(
            script.attempt.condition(for: .toolCall(name: "book"), graceMs: 500, at: Script.at(500))
                == .event(EventMatch(kind: .toolCall, toolName: "book"))
        )
    }

    @Test("agent_turn_end with on_timeout: continue censors the waiting utterance as timed out")
    func censored() throws {
        var script = Script()
        script.ready(at: 0)
        script.utterance("ask", speechStartMs: 100, speechEndMs: 400)
        #expect(script.attempt.waitGaveUp(on: .quiet(ms: 100)).isEmpty)
        let row = try #require(onlyRow(script.attempt.waitGaveUp(on: .agentTurnEnd)))
        #expect(row.label == "ask" && row.outcome == .timedOut)
    }

    @Test("a new utterance abandons the one still waiting; the attempt's end aborts the last")
    func abandoned() throws {
        var script = Script()
        script.ready(at: 0)
        #expect(script.attempt.utteranceStarted(label: "one", micOpenAt: Script.at(0), speechStartUs: 0, speechEndUs: 400_000).isEmpty)
        let first = try #require(
            onlyRow(
                script.attempt.utteranceStarted(
                    label: "two",
                    micOpenAt: Script.at(1_000),
                    speechStartUs: 0,
                    speechEndUs: 400_000
                )
            )
        )
        #expect(first.label == "one" && first.outcome == .aborted)
        let second = try #require(onlyRow(script.attempt.attemptEnded()))
        #expect(second.label == "two" && second.outcome == .aborted)
        #expect(script.attempt.nextUtteranceLabel("turn") == "turn3")
    }

    @Test("barge-in by speech: acknowledged by the server's VAD over the greeting, measured from the speech's start")
    func bargeInSpeech() throws {
        var script = Script()
        script.ready(at: 0)
        script.agentAudio(from: 500, count: 25, everyMs: 0)  // the greeting plays 500…1500
        // The caller talks over it: speech from 900 (100 ms into a clip opened at 800) to 1400.
        #expect(
            script.attempt.utteranceStarted(
                label: "stop",
                micOpenAt: Script.at(800),
                speechStartUs: 100_000,
                speechEndUs: 600_000,
                bargeInTimeoutMs: 1_500
            ).isEmpty
        )
        #expect(script.receive(.userSpeechStarted, at: 1_000) == [.send(.playbackTruncated(audioEndMs: 500)), .cancel(.repliesPlayedOut)])
        script.agentAudio(from: 2_000, count: 5)
        let answer = try #require(onlyRow(script.receive(.turnComplete(turnKey: nil), at: 2_300)))
        #expect(answer.label == "stop" && answer.outcome == .completed && answer.bargeIn == true)
        #expect(answer.intAckUs == 100_000 && answer.missedInterruption == false)
        #expect(answer.audioAlreadyDelivered == true)  // the greeting had all arrived before the barge-in
        #expect(answer.firstAudioFromEndUs == 600_000)
    }

    @Test("barge-in by command: the interrupt is sent, its acknowledgement times the round trip, its row stands alone")
    func bargeInCommand() throws {
        var script = Script()
        script.ready(at: 0)
        script.agentAudio(from: 1_000, count: 25, everyMs: 0)  // plays 1000…2000
        #expect(script.attempt.interruptCommandSent(label: "cut", at: Script.at(1_200), intTimeoutMs: 1_000) == [.send(.interrupt)])
        #expect(script.receive(.agentInterrupted, at: 1_300) == [.send(.playbackTruncated(audioEndMs: 300)), .cancel(.repliesPlayedOut)])
        let command = try #require(onlyRow(script.attempt.commandInterruptionFinished()))
        #expect(command.label == "cut" && command.turn == 1 && command.bargeIn == true)
        #expect(command.intAckUs == 100_000 && command.intCommandRttUs == 100_000)
    }

    @Test("tool_reply answers the oldest waiting call first")
    func toolCallsInOrder() {
        var script = Script()
        _ = script.receive(
            [.toolCall(name: "a", status: "requested", id: "1"), .toolCall(name: "b", status: "requested", id: "2")],
            at: 10
        )
        #expect(script.attempt.takeToolCall() == CallAttempt.ToolCall(name: "a", id: "1"))
        #expect(script.attempt.takeToolCall() == CallAttempt.ToolCall(name: "b", id: "2"))
    }

    @Test("the microphone opens once, at the first step that speaks or pauses; a clip starts at the stream's next frame slot")
    func microphoneOpensOnce() {
        var script = Script()
        let frames = FrameSet(utterance: .testClip(frameCount: 2), dialect: EchoDialect())
        let pause = script.attempt.openMicrophone(frameMs: 40, at: Script.at(100), speaking: nil)
        #expect(pause.firstFrameDueAt == Script.at(140) && pause.micOpenAt == Script.at(100))
        #expect(script.attempt.state.streamOpenedAt == Script.at(100))
        // Its first frame (silence) fills 100…140 ms; at 130 ms the stream is open and the clip
        // waits for the next slot.
        let silence = PreparedAudio(sharedFrame: EncodedFrame(.text("silence")), byteCount: 0)
        guard case .notYet(let dueAt) = script.attempt.takeDueFrame(by: Script.at(130), silence: silence), dueAt == Script.at(140),
            case .due(let first) = script.attempt.takeDueFrame(by: Script.at(140), silence: silence)
        else {
            Issue.record("the first frame is not due at 140 ms")
            return
        }
        #expect(first.deadline == Script.at(140) && !first.clipFinished)
        let say = script.attempt.openMicrophone(frameMs: 40, at: Script.at(130), speaking: frames)
        #expect(say.firstFrameDueAt == nil && say.micOpenAt == Script.at(140))
        #expect(script.attempt.state.streamOpenedAt == Script.at(100) && script.attempt.state.microphone?.isSpeaking == true)
        _ = script.attempt.stopMicrophone()
        guard case .stopped = script.attempt.takeDueFrame(by: Script.at(400), silence: silence) else {
            Issue.record("a stopped stream has a frame")
            return
        }
        let again = script.attempt.openMicrophone(frameMs: 40, at: Script.at(500), speaking: frames)
        #expect(again.firstFrameDueAt == Script.at(540) && again.micOpenAt == Script.at(500))
    }
}
