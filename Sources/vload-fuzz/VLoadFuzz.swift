import Foundation
import VoiceLoad
import VoiceLoadFuzzing

/// `vload-fuzz`: the fuzz targets of `Fuzzing` as a program.
///
/// Built with `-sanitize=fuzzer -DVLOAD_LIBFUZZER` (scripts/fuzz), it is a libFuzzer binary
/// taking libFuzzer's arguments; `VLOAD_FUZZ_WRITE_CORPUS=DIR` (with `VLOAD_FUZZ_REPO=ROOT`)
/// first writes the seed corpus. A plain build replays inputs instead:
///
///     vload-fuzz FILE|DIR…                              replay inputs (a crash input, a corpus)
///     vload-fuzz --write-corpus DIR [--repo ROOT]       write the seed corpus
///     vload-fuzz --mutate N [--target T] [--seed S]     run N seeded mutations of the seeds
///                [--repo ROOT]                          (of target T only: clientDecoder…)
@main
struct VLoadFuzz {
    static func main() {
        let environment = ProcessInfo.processInfo.environment
        if let directory = environment["VLOAD_FUZZ_WRITE_CORPUS"] {
            exit(FuzzCommands.writeCorpus(to: directory, repo: environment["VLOAD_FUZZ_REPO"] ?? "."))
        }
        #if VLOAD_LIBFUZZER
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runLibFuzzerDriver(&argc, &argv, fuzzTestOneInput))
        #else
        exit(FuzzCommands.run(Array(CommandLine.arguments.dropFirst())))
        #endif
    }
}
