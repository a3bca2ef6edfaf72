import Foundation
import Testing

@testable import VoiceLoad
@testable import VoiceLoadFuzzing

/// Inputs that crashed or hung vload before the fixes found by fuzzing, each run through its
/// fuzz target and checked for the documented outcome.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    @Test("an arrival rate too large for an integer is an input error, not a trap")
    func hugeArrivalRate() {
        #expect(throws: InputError.self) { try ArrivalRate.parse("1e300") }
        #expect(ArrivalRate.format(1e300) == "1e+300")
        #expect(Fuzzing.run(Fuzzing.input(.arrivalRate, text: "1e300/s")).violations.isEmpty)
    }

    @Test("a server latency or audio position past a day is malformed, not a trap later in the client")
    func deepgramNumbersOutOfRange() {
        var agent = DeepgramAgentClientDialect().makeCodec(parameters: [:])
        let events = agent.receive(.text(#"{"type":"AgentStartedSpeaking","total_latency":1e300,"tts_latency":0.2}"#)).events
        #expect(events.first == .agentSpeechStarted(turnKey: nil))
        #expect(events.contains { if case .malformed = $0 { true } else { false } })
        #expect(events.contains(.serverLatency(name: "server_tts_latency_ms", valueUs: 200_000)))
        var stt = DeepgramSTTClientDialect().makeCodec(parameters: [:])
        let results = stt.receive(.text(#"{"type":"Results","channel":{"alternatives":[{"transcript":"hi"}]},"start":-5,"duration":1}"#))
            .events
        #expect(results.count == 1 && DialectTestSupport.isSingleMalformed(results))
    }

    @Test("scenario durations past a day are refused: the client adds to them and converts them to nanoseconds")
    func scenarioDurationsAreBounded() {
        for field in ["timeout_ms: 9223372036854775807", "timeout_ms: 86400001"] {
            let yaml = "steps:\n  - connect\n  - wait: ready\n    \(field)\n"
            #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml, path: "x.yaml") }
        }
        let bargeIn = "steps:\n  - connect\n  - barge_in: command\n    after_heard_ms: 9223372036854775807\n"
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: bargeIn, path: "x.yaml") }
        let day = "quiet_ms: 86400000\nsteps:\n  - connect\n  - tool_reply: {a: b}\n    delay_ms: 86400000\n"
        #expect((try? ScenarioLoader.parse(yaml: day, path: "x.yaml"))?.quietMs == 86_400_000)
    }

    @Test("nested YAML aliases are refused at once instead of expanding exponentially")
    func billionLaughs() throws {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...12 {
            yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let scenario = "session:\n  " + yaml.split(separator: "\n").joined(separator: "\n  ") + "\nsteps: [connect]\n"
        #expect { try ScenarioLoader.parse(yaml: scenario, path: "x.yaml") } throws: { error in
            "\(error)" == "x.yaml:2:7: YAML anchors and aliases are not supported in scenario files"
        }
        #expect { try CustomDialect.parse(yaml: "dialect: d\ninput: &a {encoding: mulaw}\naudio: {input: *a}\n", path: "d.yaml") } throws: {
            error in
            "\(error)".hasPrefix("d.yaml:2:8: YAML anchors and aliases are not supported")
        }
    }

    @Test("a custom dialect's sample rate is bounded: frame sizes and resampling multiply it")
    func hugeSampleRate() {
        let yaml = "dialect: d\naudio:\n  input: {encoding: pcm16le, sample_rate: 9223372036854775807, transport: binary}\n"
        #expect { try CustomDialect.parse(yaml: yaml, path: "d.yaml") } throws: { error in
            "\(error)" == "d.yaml:3:43: 'audio.input.sample_rate' must be at most 384000 Hz"
        }
    }

    @Test("a threshold bound that overflows once scaled is refused")
    func thresholdBoundOverflow() {
        let huge = String(repeating: "9", count: 306)
        #expect(throws: InputError.self) { try ThresholdExpression.parse("first_audio_from_end_ms.p95 < \(huge)s") }
        #expect(Fuzzing.run(Fuzzing.input(.threshold, text: "connect_ms.max < \(huge)s")).violations.isEmpty)
    }

    @Test("errors quoting user text stay on one line")
    func errorsAreOneLine() {
        #expect(InputError("bad 'a\nb\r\u{0}\u{2028}'").message == #"bad 'a\nb\r\u{0}\u{2028}'"#)
        #expect(InputError("tab\there").message == "tab\there")
        #expect(throws: InputError.self) { try ThresholdExpression.parse("turns\n>= 2") }
        #expect(Fuzzing.run(Fuzzing.input(.threshold, text: "turns\n>= x")).violations.isEmpty)
        let scenario = "steps:\n  - \"con\\nnect\"\n"
        #expect { try ScenarioLoader.parse(yaml: scenario, path: "x.yaml") } throws: { error in
            !"\(error)".contains("\n") && "\(error)".contains(#"con\nnect"#)
        }
    }
}
