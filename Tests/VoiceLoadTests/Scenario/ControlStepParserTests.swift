import Foundation
import Testing

@testable import VoiceLoad

@Suite("Scenario: dtmf, finalize and configure steps, keepalive_ms")
struct ControlStepParserTests {
    private func scenario(_ body: String, top: String = "") throws -> Scenario {
        try ScenarioLoader.parse(yaml: top + "steps:\n  - connect\n" + body, path: "/s/x.yaml")
    }

    @Test func dtmfAndFinalizeWithTheirOptions() throws {
        let parsed = try scenario(
            """
              - dtmf: "1234#"
              - dtmf: "*9"
                interval_ms: 0
              - finalize
              - finalize:
                timeout_ms: 3000
                on_timeout: continue
            """,
            top: "keepalive_ms: 2000\n"
        )
        #expect(
            Array(parsed.steps.dropFirst()) == [
                .dtmf(digits: "1234#", intervalMs: 250), .dtmf(digits: "*9", intervalMs: 0),
                .finalize(timeoutMs: 10_000, onTimeout: .fail), .finalize(timeoutMs: 3_000, onTimeout: .continue),
            ]
        )
        #expect(parsed.keepAliveMs == 2_000)
        #expect(try scenario("").keepAliveMs == nil)
    }

    @Test func configureTakesAMappingOfSettings() throws {
        let parsed = try scenario("  - configure: {eot_threshold: 0.8, keyterms: [vload], eot_timeout_ms: 3000}\n")
        #expect(
            parsed.steps.last
                == .configure(parameters: ["eot_threshold": .number(0.8), "keyterms": .array([.string("vload")]), "eot_timeout_ms": .number(3_000)])
        )
        #expect(parsed.steps.last?.name == "configure")
    }

    @Test(arguments: ["- configure", "- configure: 0.8", "- configure: {}", "- configure: [a]", "- configure: {a: 1}\n    timeout_ms: 5"])
    func badConfigureStepsAreOneLineErrors(step: String) {
        #expect(throws: ScenarioError.self) { try scenario("  " + step + "\n") }
    }

    @Test func configureNeedsADialectWithAMessageForIt() throws {
        let eager = try scenario("  - configure: {eager_eot_threshold: 0.5}\n")
        let refused = #expect(throws: InputError.self) {
            try SessionPlanBuilder.build(scenario: eager, dialect: OpenAIRealtimeClientDialect(), url: "ws://127.0.0.1:9/x", token: nil, frameMs: nil)
        }
        #expect(refused?.description.contains("deepgram-flux and assemblyai-v3") == true, "\(String(describing: refused))")
        let flux = try SessionPlanBuilder.build(scenario: eager, dialect: DeepgramFluxClientDialect(), url: "ws://127.0.0.1:9/x", token: nil, frameMs: nil)
        #expect(flux.metricsMeasured.contains(.eagerEndOfTurnMs), "the step turns the eager end of turn on")
        _ = try SessionPlanBuilder.build(scenario: eager, dialect: AssemblyAIClientDialect(), url: "ws://127.0.0.1:9/x", token: nil, frameMs: nil)
    }

    @Test(arguments: [#"- dtmf: "12a""#, "- dtmf: \"\"", "- dtmf: [1]", "- dtmf: \"1\"\n    speed: 3"])
    func badKeysAreOneLineErrors(step: String) {
        #expect(throws: ScenarioError.self) { try scenario("  " + step + "\n") }
    }

    @Test func stepsTheDialectCannotSendAreRefusedBeforeTheRun() throws {
        let keys = try scenario("  - dtmf: \"1\"\n")
        #expect(throws: InputError.self) {
            try SessionPlanBuilder.build(
                scenario: keys,
                dialect: DatagridClientDialect(),
                url: "ws://127.0.0.1:9/x",
                token: nil,
                frameMs: nil
            )
        }
        _ = try SessionPlanBuilder.build(
            scenario: keys,
            dialect: TwilioMediaStreamsClientDialect(),
            url: "ws://127.0.0.1:9/x",
            token: nil,
            frameMs: nil
        )
        let flush = try scenario("  - finalize\n")
        #expect(throws: InputError.self) {
            try SessionPlanBuilder.build(
                scenario: flush,
                dialect: OpenAIRealtimeClientDialect(),
                url: "ws://127.0.0.1:9/x",
                token: nil,
                frameMs: nil
            )
        }
        let plan = try SessionPlanBuilder.build(
            scenario: flush,
            dialect: DeepgramSTTClientDialect(),
            url: "ws://127.0.0.1:9/x",
            token: nil,
            frameMs: nil
        )
        #expect(plan.metricsMeasured.contains(.finalizeMs))
        #expect(plan.keepAlive == KeepAlivePolicy(everyMs: 5_000))
    }

    @Test func keepaliveMsOverridesTheDialectsIntervalAndZeroTurnsItOff() throws {
        let off = try scenario("", top: "keepalive_ms: 0\n")
        let plan = try SessionPlanBuilder.build(
            scenario: off,
            dialect: DeepgramAgentClientDialect(),
            url: "ws://127.0.0.1:9/x",
            token: nil,
            frameMs: nil
        )
        #expect(plan.keepAlive == nil)
        let fast = try scenario("", top: "keepalive_ms: 1500\n")
        let fastPlan = try SessionPlanBuilder.build(
            scenario: fast,
            dialect: DeepgramAgentClientDialect(),
            url: "ws://127.0.0.1:9/x",
            token: nil,
            frameMs: nil
        )
        #expect(fastPlan.keepAlive?.everyMs == 1_500)
        let none = try SessionPlanBuilder.build(
            scenario: fast,
            dialect: DatagridClientDialect(),
            url: "ws://127.0.0.1:9/x",
            token: nil,
            frameMs: nil
        )
        #expect(none.keepAlive == nil)  // a dialect without a keep-alive message sends none
    }
}
