import Foundation
import VoiceLoad
import VoiceLoadFuzzing

/// What the plain `vload-fuzz` does with its arguments.
enum FuzzCommands {
    static let usage =
        "usage: vload-fuzz FILE|DIR… | --write-corpus DIR [--repo ROOT] | --mutate N [--target NAME] [--seed S] [--repo ROOT]"

    /// Runs the command line `arguments`; the exit code.
    static func run(_ arguments: [String]) -> Int32 {
        var options: [String: String] = [:]
        var paths: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if ["--write-corpus", "--repo", "--mutate", "--seed", "--target"].contains(argument) {
                guard index + 1 < arguments.count else { return fail(usage) }
                options[argument] = arguments[index + 1]
                index += 2
            } else if argument.hasPrefix("-") {
                return fail(usage)
            } else {
                paths.append(argument)
                index += 1
            }
        }
        let repo = options["--repo"] ?? "."
        if let directory = options["--write-corpus"] { return writeCorpus(to: directory, repo: repo) }
        if let count = options["--mutate"] {
            guard let runs = Int(count), runs > 0, let seed = UInt64(options["--seed"] ?? "1") else { return fail(usage) }
            let targets = Fuzzing.Target.allCases.filter { options["--target"] == nil || "\($0)" == options["--target"] }
            guard !targets.isEmpty else {
                return fail("unknown target (known: \(Fuzzing.Target.allCases.map { "\($0)" }.joined(separator: ", ")))")
            }
            return mutate(runs: runs, seed: seed, repo: repo, targets: targets)
        }
        guard !paths.isEmpty else { return fail(usage) }
        return replay(paths)
    }

    /// Writes every seed input to `directory` (one file each), reading the scenario and dialect
    /// files of the repository at `repo`.
    static func writeCorpus(to directory: String, repo: String) -> Int32 {
        let seeds = FuzzSeeds.allInputs(scenarioFiles: yamlFiles(in: repo + "/scenarios"), dialectFiles: yamlFiles(in: repo + "/dialects"))
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (index, seed) in seeds.enumerated() {
                let target = Fuzzing.Target(selector: seed.first ?? 0)
                try Data(seed).write(to: URL(fileURLWithPath: directory).appendingPathComponent("seed-\(target)-\(index)"))
            }
        } catch {
            return fail("cannot write the corpus to \(directory): \(error)")
        }
        print("vload-fuzz: wrote \(seeds.count) seed inputs to \(directory)")
        return 0
    }

    /// Runs every file of `paths` (directories: every file in them); 1 when one broke a property.
    static func replay(_ paths: [String]) -> Int32 {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return fail("no such file: \(path)") }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        var broken = 0
        var accepted = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let outcome = Fuzzing.run([UInt8](data))
            if outcome.accepted { accepted += 1 }
            if !outcome.violations.isEmpty {
                broken += 1
                print("\(file): " + outcome.violations.joined(separator: "; "))
            }
        }
        print("vload-fuzz: \(files.count) inputs, \(accepted) accepted, \(broken) broke a property")
        return broken == 0 ? 0 : 1
    }

    /// Runs `runs` mutations of the seeds of `targets`, drawn from `seed`; 1 when one broke a property.
    static func mutate(runs: Int, seed: UInt64, repo: String, targets: [Fuzzing.Target]) -> Int32 {
        let seeds = targets.flatMap {
            FuzzSeeds.inputs(for: $0, scenarioFiles: yamlFiles(in: repo + "/scenarios"), dialectFiles: yamlFiles(in: repo + "/dialects"))
        }
        var mutator = FuzzMutator(seed: seed)
        var broken = 0
        for _ in 0..<runs {
            let base = seeds[mutator.pick(seeds.count)]
            let target = Fuzzing.Target(selector: base[0])
            let input = mutator.mutate(base, keeping: FuzzSeeds.prefixCount(of: target), donor: seeds[mutator.pick(seeds.count)])
            let outcome = Fuzzing.run(input)
            if !outcome.violations.isEmpty {
                broken += 1
                print("\(target) \(Data(input).base64EncodedString()): " + outcome.violations.joined(separator: "; "))
            }
        }
        print("vload-fuzz: \(runs) mutated inputs, \(broken) broke a property")
        return broken == 0 ? 0 : 1
    }

    /// The texts of the `.yaml` files in `directory` (none when it does not exist).
    static func yamlFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().filter { $0.hasSuffix(".yaml") }.compactMap { name in
            FileManager.default.contents(atPath: directory + "/" + name).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("vload-fuzz: \(message)\n".utf8))
        return 2
    }
}
