import ArgumentParser
import VoiceLoad

@testable import vload

/// Whether a `vload` command line is valid against the current CLI, without running anything:
/// the arguments parse (`VLoad.parseAsRoot`, which also runs each command's `validate()`), and
/// the values a run would reject only once started are checked too: every threshold
/// (`--threshold`, `--slo`), and `--tolerance`.
enum VLoadCommandCheck {
    /// nil when `arguments` (after `vload`) are valid, else the error vload would print.
    static func problem(with arguments: [String]) -> String? {
        let command: any ParsableCommand
        do {
            command = try VLoad.parseAsRoot(arguments)
        } catch {
            // --help and --version end parsing with success: such a line is valid.
            return VLoad.exitCode(for: error) == .success ? nil : VLoad.message(for: error)
        }
        do throws(InputError) {
            for threshold in thresholds(of: command) { _ = try ThresholdExpression.parse(threshold) }
            if let tolerance = tolerance(of: command) { _ = try RunGate.tolerance(tolerance) }
        } catch {
            return error.message
        }
        return nil
    }

    private static func thresholds(of command: any ParsableCommand) -> [String] {
        switch command {
        case let run as RunCommand: return run.thresholds
        case let capacity as CapacityCommand: return capacity.slos
        case let merge as MergeCommand: return merge.thresholds
        default: return []
        }
    }

    private static func tolerance(of command: any ParsableCommand) -> String? {
        switch command {
        case let run as RunCommand: return run.tolerance
        case let compare as CompareCommand: return compare.tolerance
        default: return nil
        }
    }
}
