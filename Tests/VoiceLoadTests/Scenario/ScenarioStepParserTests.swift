import Foundation
import Testing

@testable import VoiceLoad

@Suite("Scenario steps")
struct ScenarioStepParserTests {
    private func steps(_ body: String) throws -> [ScenarioStep] {
        try ScenarioLoader.parse(yaml: "steps:\n  - connect\n" + body, path: "/s/x.yaml").steps
    }

    @Test("every step kind, with its options")
    func everyKind() throws {
        let parsed = try steps(
            """
              - wait: agent_audio
                timeout_ms: 5000
                on_timeout: continue
              - wait: quiet
                ms: 800
              - wait: transcript
                role: user
              - wait: tool_call
                name: get_weather
              - wait: event
                event: user.speech_stopped
              - silence: 2000
              - think: [800, 1500]
              - barge_in: audio/stop.wav
                after_heard_ms: 1500
                label: stop
                int_timeout_ms: 2000
              - barge_in: command
                after_heard_ms: 0
              - tool_reply:
                  get_weather: {temperature_c: 18}
                  "*": plain text
                delay_ms: 300
              - repeat: 3
                steps:
                  - say: a.wav
                  - wait: agent_turn_end
              - hangup

            """
        )
        #expect(
            parsed == [
                .connect(timeoutMs: 10_000),
                .wait(WaitStep(.agentAudio, timeoutMs: 5_000, onTimeout: .continue)),
                .wait(WaitStep(.quiet(ms: 800), timeoutMs: 30_000)),
                .wait(WaitStep(.transcript(role: "user"), timeoutMs: 30_000)),
                .wait(WaitStep(.toolCall(name: "get_weather"), timeoutMs: 30_000)),
                .wait(WaitStep(.event(.userSpeechStopped), timeoutMs: 30_000)),
                .pause(PauseStep(minMs: 2_000, maxMs: 2_000)),
                .pause(PauseStep(minMs: 800, maxMs: 1_500, isThink: true)),
                .bargeIn(
                    BargeInStep(
                        action: .speech(SayStep(audioPath: "/s/audio/stop.wav", label: "stop")),
                        afterHeardMs: 1_500,
                        label: "stop",
                        intTimeoutMs: 2_000
                    )
                ),
                .bargeIn(BargeInStep(action: .command, afterHeardMs: 0)),
                .toolReply(ToolReplyStep(outputs: ["get_weather": #"{"temperature_c":18}"#, "*": "plain text"], delayMs: 300)),
                .repeatSteps(
                    times: 3,
                    steps: [
                        .say(SayStep(audioPath: "/s/a.wav")), .wait(WaitStep(.agentTurnEnd, timeoutMs: 30_000)),
                    ]
                ),
                .hangup(timeoutMs: 5_000),
            ]
        )
        let scenario = try ScenarioLoader.parse(
            yaml:
                "steps:\n  - connect\n  - barge_in: b.wav\n    after_heard_ms: 1\n  - repeat: 2\n    steps: [{say: a.wav}, {say: b.wav}]\n",
            path: "/s/x.yaml"
        )
        #expect(scenario.distinctSaySteps.map(\.audioPath) == ["/s/b.wav", "/s/a.wav"])
    }

    @Test("top-level playback, seed and simulator settings")
    func topLevel() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: "jitter_buffer_ms: 200\nseed: 7\nsimulator:\n  reply_ms: 8000\n  no_greeting: true\nsteps: [connect]\n",
            path: "x.yaml"
        )
        #expect(scenario.jitterBufferMs == 200 && scenario.seed == 7)
        #expect(scenario.simulatorSettings == ["reply_ms": .number(8_000), "no_greeting": .bool(true)])
    }

    @Test(
        "mistakes name the line, the step and what is wrong",
        arguments: [
            ("  - barge_in: a.wav\n", "x.yaml:3:15: steps[1]: 'barge_in' needs 'after_heard_ms'"),
            ("  - think: [3000, 1000]\n", "x.yaml:3:12: steps[1]: 'think' needs a duration in ms (1500) or a range ([1000, 3000])"),
            ("  - wait: quiet\n", "x.yaml:3:11: steps[1]: 'wait: quiet' needs 'ms'"),
            ("  - wait: ready\n    ms: 3\n", "x.yaml:4:5: unknown field of 'wait' in steps[1] 'ms'"),
            ("  - wait: ready\n    on_timeout: ignore\n", "x.yaml:4:17: 'on_timeout' must be one of: fail, continue"),
            ("  - wait: event\n    event: agent.sings\n", "x.yaml:4:12: 'event' must be one of: session.started"),
            ("  - repeat: 2\n", "x.yaml:3:13: steps[1]: 'repeat' needs a non-empty 'steps' list"),
            ("  - repeat: 0\n    steps: [hangup]\n", "x.yaml:3:13: steps[1]: 'repeat' needs a count from 1 to 100000"),
            ("  - repeat: 1\n    steps:\n      - sya: a.wav\n", "x.yaml:5:9: steps[1].steps[0]: unknown step 'sya'"),
            ("  - tool_reply: get_weather\n", "x.yaml:3:17: steps[1]: 'tool_reply' needs a mapping of tool name to output"),
            ("jitter_buffer_ms: 5000\n", "x.yaml:1:19: 'jitter_buffer_ms' must be 0–1000"),
        ]
    )
    func mistakes(body: String, expected: String) {
        let yaml = body.hasPrefix("jitter") ? body + "steps: [connect]\n" : "steps:\n  - connect\n" + body
        #expect {
            try ScenarioLoader.parse(yaml: yaml, path: "x.yaml")
        } throws: { error in
            String(describing: error).hasPrefix(expected)
        }
    }
}
