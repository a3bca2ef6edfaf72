import Foundation

@testable import VoiceLoad
@testable import VoiceLoadFuzzing

/// A seeded fuzz run of one target: mutations of its seeds, then random bytes, each input run
/// through `Fuzzing.run`. The same seed draws the same inputs every time.
struct FuzzCampaign {
    var target: Fuzzing.Target
    var seeds: [[UInt8]]
    var mutations: Int
    var randomInputs: Int
    var seed: UInt64

    struct Result {
        var runs = 0
        var accepted = 0
        /// The first inputs that broke a property (base64, or the size of a long one) and what they broke.
        var failures: [String] = []
    }

    init(_ target: Fuzzing.Target, seeds: [[UInt8]]? = nil, mutations: Int, randomInputs: Int, seed: UInt64) {
        self.target = target
        self.seeds =
            seeds
            ?? FuzzSeeds.inputs(
                for: target,
                scenarioFiles: Self.repositoryFiles("scenarios"),
                dialectFiles: Self.repositoryFiles("dialects")
            )
        self.mutations = mutations
        self.randomInputs = randomInputs
        self.seed = seed
    }

    func run() -> Result {
        var mutator = FuzzMutator(seed: seed)
        var result = Result()
        let prefixCount = FuzzSeeds.prefixCount(of: target)
        func run(_ input: [UInt8]) {
            let outcome = Fuzzing.run(input)
            result.runs += 1
            if outcome.accepted { result.accepted += 1 }
            if !outcome.violations.isEmpty, result.failures.count < 5 {
                let shown = Data(input).base64EncodedString()
                result.failures.append(
                    (shown.count > 400 ? "\(input.count) bytes" : shown) + ": " + outcome.violations.joined(separator: "; ")
                )
            }
        }
        for _ in 0..<mutations {
            let base = seeds[mutator.pick(seeds.count)]
            run(mutator.mutate(base, keeping: prefixCount, donor: seeds[mutator.pick(seeds.count)]))
        }
        for _ in 0..<randomInputs {
            let prefix = Array(seeds[mutator.pick(seeds.count)].prefix(prefixCount))
            run(mutator.randomInput(prefix: prefix, maxCount: 512))
        }
        return result
    }

    /// The texts of the repository's `.yaml` files in `directory` (`scenarios`, `dialects`).
    static func repositoryFiles(_ directory: String) -> [String] {
        let path = repositoryRoot() + "/" + directory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().filter { $0.hasSuffix(".yaml") }.compactMap { name in
            FileManager.default.contents(atPath: path + "/" + name).map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
