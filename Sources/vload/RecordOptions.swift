import ArgumentParser
import VoiceLoad

/// `--record` and `--record-max-mb`: which calls a run (or each step of a capacity search)
/// records, and the cap on their size (docs/recordings.md).
struct RecordOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Calls to record as stereo WAVs with their marks in recordings/ (docs/recordings.md): worst:N (the N slowest "
                + "first-audio calls), failed (failed, timed out or past a threshold), all, none, or worst:N,failed.",
            valueName: "which"
        )
    )
    var record = RecordPolicy.standard.description

    @Option(
        name: .customLong("record-max-mb"),
        help: ArgumentHelp("The cap on the recordings' total size in MB; a recording past it is left out and counted.", valueName: "MB")
    )
    var recordMaxMb = RecordingDesk.defaultCapBytes / 1_000_000

    func validate() throws {
        if !(1...1_000_000).contains(recordMaxMb) {
            throw ValidationError("--record-max-mb must be 1–1000000 (got \(recordMaxMb))")
        }
    }

    /// The policy `--record` names (exit 2 with one line when it names none).
    func policy() throws(InputError) -> RecordPolicy { try RecordPolicy(parsing: record) }

    var capBytes: Int { recordMaxMb * 1_000_000 }
}
