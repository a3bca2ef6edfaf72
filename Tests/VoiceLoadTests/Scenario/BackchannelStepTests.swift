import Foundation
import Testing

@testable import VoiceLoad

@Suite("Scenario steps: backchannel")
struct BackchannelStepTests {
    private func steps(_ body: String) throws -> [ScenarioStep] {
        try ScenarioLoader.parse(yaml: "steps:\n  - connect\n" + body, path: "/s/x.yaml").steps
    }

    @Test("one point or an ascending list, the clip's speech overrides, the stop window and timeouts")
    func parses() throws {
        let parsed = try steps(
            """
              - backchannel: audio/backchannel/mm-hmm.wav
                after_heard_ms: 1500
              - backchannel: /clips/okay.wav
                after_heard_ms: [0, 2000, 4000]
                speech_end_ms: 600
                stop_window_ms: 800
                timeout_ms: 9000
                on_timeout: continue

            """
        )
        #expect(
            parsed == [
                .connect(timeoutMs: 10_000),
                .backchannel(BackchannelStep(clip: SayStep(audioPath: "/s/audio/backchannel/mm-hmm.wav"), afterHeardMs: [1_500])),
                .backchannel(
                    BackchannelStep(
                        clip: SayStep(audioPath: "/clips/okay.wav", speechEndMs: 600),
                        afterHeardMs: [0, 2_000, 4_000],
                        stopWindowMs: 800,
                        timeoutMs: 9_000,
                        onTimeout: .continue
                    )
                ),
            ]
        )
        #expect(parsed[1].name == "backchannel" && parsed[1].spokenClip?.audioPath == "/s/audio/backchannel/mm-hmm.wav")
        #expect(BackchannelStep.defaultStopWindowMs == 1_500)
    }

    @Test(
        "mistakes are one line naming the place",
        arguments: [
            ("  - backchannel: a.wav\n", "x.yaml:3:18: steps[1]: 'backchannel' needs 'after_heard_ms'"),
            ("  - backchannel\n", "x.yaml:3:5: steps[1]: 'backchannel' needs 'after_heard_ms'"),
            ("  - backchannel: a.wav\n    after_heard_ms: [2000, 1000]\n", "x.yaml:4:21: steps[1]: 'after_heard_ms' of 'backchannel' is a list"),
            ("  - backchannel: a.wav\n    after_heard_ms: []\n", "x.yaml:4:21: steps[1]: 'after_heard_ms' of 'backchannel' is a list"),
            ("  - backchannel: a.wav\n    after_heard_ms: 100\n    label: ack\n", "x.yaml:5:5: unknown field of 'backchannel' in steps[1] 'label'"),
            ("  - backchannel: a.wav\n    after_heard_ms: 100\n    stop_window_ms: 0\n", "x.yaml:5:21: 'stop_window_ms' must be"),
            ("  - backchannel: \"\"\n    after_heard_ms: 100\n", "x.yaml:3:18: steps[1]: 'backchannel' needs an audio file path"),
        ]
    )
    func mistakes(body: String, expected: String) {
        #expect {
            try ScenarioLoader.parse(yaml: "steps:\n  - connect\n" + body, path: "x.yaml")
        } throws: { error in
            String(describing: error).hasPrefix(expected)
        }
    }
}
