import Foundation
import Testing

@testable import VoiceLoad
@testable import VoiceLoadFuzzing

/// Seeded fuzzing of the parsers of user input: scenario and custom dialect YAML (mutations of
/// the repository's files and of the fuzz seeds), thresholds, stages, durations, arrival rates
/// and audio files. Each must parse within its bounds or fail with one line naming the file or
/// option.
@Suite("Parser fuzzing")
struct ParserFuzzTests {
    @Test("every seed parses within its bounds")
    func seedsAreValid() {
        for target in [Fuzzing.Target.scenario, .customDialect, .threshold, .stages, .duration, .arrivalRate, .audioFile] {
            let seeds = FuzzSeeds.inputs(
                for: target,
                scenarioFiles: FuzzCampaign.repositoryFiles("scenarios"),
                dialectFiles: FuzzCampaign.repositoryFiles("dialects")
            )
            for seed in seeds {
                let outcome = Fuzzing.run(seed)
                #expect(outcome.violations.isEmpty, "\(target): \(outcome.violations)")
                // The header-only WAV holds no audio: its only seed meant to be refused.
                if target != .audioFile || seed.count > 100 {
                    #expect(outcome.accepted, "\(target) seed \(String(decoding: seed.dropFirst().prefix(80), as: UTF8.self)) is refused")
                }
            }
        }
    }

    @Test(
        "parsers take mutated and random text",
        arguments: [
            (Fuzzing.Target.scenario, 2_500, 300, UInt64(31)),
            (Fuzzing.Target.customDialect, 1_000, 200, UInt64(32)),
            (Fuzzing.Target.threshold, 1_500, 500, UInt64(33)),
            (Fuzzing.Target.stages, 1_500, 500, UInt64(34)),
            (Fuzzing.Target.duration, 1_500, 500, UInt64(35)),
            (Fuzzing.Target.arrivalRate, 1_500, 500, UInt64(36)),
            (Fuzzing.Target.audioFile, 300, 50, UInt64(37)),
        ]
    )
    func fuzz(target: Fuzzing.Target, mutations: Int, randomInputs: Int, seed: UInt64) {
        let result = FuzzCampaign(target, mutations: mutations, randomInputs: randomInputs, seed: seed).run()
        #expect(result.failures.isEmpty, "\(target): \(result.failures)")
        #expect(result.runs == mutations + randomInputs)
        #expect(
            result.accepted > result.runs / 50 && result.accepted < result.runs,
            "\(target): \(result.accepted) of \(result.runs) accepted"
        )
    }
}
