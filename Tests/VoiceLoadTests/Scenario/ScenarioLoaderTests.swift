import Foundation
import Testing
import VoiceLoad

@Suite("ScenarioLoader")
struct ScenarioLoaderTests {
    @Test("a full scenario parses into steps with defaults and paths relative to the file")
    func parsesSteps() throws {
        let yaml = """
            name: demo
            dialect: datagrid
            frame_ms: 20
            quiet_ms: 300
            session:
              ephemeral: true
              voice_config: {silent_start: false, voice_preset: sage}
            steps:
              - connect
              - wait: ready
                timeout_ms: 5000
              - say: audio/hello.wav
                label: ask
                speech_end_ms: 1500
              - wait: agent_turn_end
              - hangup
            """
        let scenario = try ScenarioLoader.parse(yaml: yaml, path: "/tmp/scenarios/demo.yaml")
        #expect(scenario.name == "demo" && scenario.dialect == "datagrid" && scenario.frameMs == 20 && scenario.quietMs == 300)
        #expect(scenario.sessionParameters["ephemeral"] == .bool(true))
        #expect(scenario.sessionParameters["voice_config"] == .object(["silent_start": .bool(false), "voice_preset": .string("sage")]))
        #expect(
            scenario.steps == [
                .connect(timeoutMs: 10_000),
                .wait(WaitStep(.ready, timeoutMs: 5_000)),
                .say(SayStep(audioPath: "/tmp/scenarios/audio/hello.wav", label: "ask", speechEndMs: 1_500)),
                .wait(WaitStep(.agentTurnEnd, timeoutMs: 30_000)),
                .hangup(timeoutMs: 5_000),
            ]
        )
    }

    @Test(
        "errors name the file, the line and what is wrong",
        arguments: [
            ("steps:\n  - connect\n  - sya: a.wav\n", "x.yaml:3:5: steps[1]: unknown step 'sya'"),
            ("name: x\n", "x.yaml:1:1: missing field 'steps'"),
            ("steps:\n  - wait: ready\n", "x.yaml:2:5: steps[0]: the first step must be 'connect'"),
            (
                "steps:\n  - connect\n  - wait: forever\n",
                "x.yaml:3:11: steps[1]: 'wait' needs one of: ready, greeting, agent_audio, agent_turn_end, quiet, transcript, tool_call, event"
            ),
            ("steps:\n  - connect:\n    timeout_ms: -3\n", "x.yaml:3:17: 'timeout_ms' must be a positive integer"),
            ("stepz: []\n", "x.yaml:1:1: unknown scenario field 'stepz'"),
            ("steps:\n  - connect\n  - say: a.wav\n    lable: x\n", "x.yaml:4:5: unknown field of 'say' in steps[1] 'lable'"),
            ("steps: [connect\n", "x.yaml:2:1: invalid YAML"),
        ]
    )
    func errors(yaml: String, expected: String) {
        #expect {
            try ScenarioLoader.parse(yaml: yaml, path: "x.yaml")
        } throws: { error in
            String(describing: error).hasPrefix(expected)
        }
    }

    @Test("the shipped greeting scenario loads and its audio exists")
    func shippedGreeting() throws {
        let path = repositoryRoot() + "/scenarios/greeting.yaml"
        let scenario = try ScenarioLoader.load(path: path)
        #expect(scenario.name == "greeting")
        #expect(scenario.distinctSaySteps.count == 1)
        #expect(FileManager.default.fileExists(atPath: scenario.distinctSaySteps[0].audioPath))
    }
}
