import ArgumentParser
import Foundation
import VoiceLoad

/// `vload compare BASELINE.json CURRENT.json`: regressions between two runs.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two report.json files: latency percentiles, and whether any got worse beyond the tolerance and the noise.",
        discussion: """
            For every latency metric with samples in both reports (overall and per turn label) \
            and each of p50, p90, p95, p99: the baseline and current figures and the change. A \
            change is a REGRESSION only when the current figure is higher than the baseline by \
            more than --tolerance AND beyond run-to-run noise: noise is judged by a seeded \
            bootstrap (1000 resamples) of the percentile from each report's stored HDR \
            histogram, and the two 95% bootstrap intervals must not overlap; and the change \
            must exceed one audio frame of the baseline run (its frame_ms), the measurement's \
            own quantization and the spread of millisecond setup metrics between identical runs. \
            Fewer than 20 \
            samples on a side are flagged 'low sample' and never a regression.

            Exit codes: 0 no regression; 1 a regression; 2 a file cannot be read or is not a \
            vload report.
            """
    )

    @Argument(help: "The baseline report.json.")
    var baseline: String

    @Argument(help: "The current report.json.")
    var current: String

    @Option(help: "How much worse a percentile may get before it can count as a regression.")
    var tolerance = "10%"

    func run() throws {
        let tolerancePercent = try RunGate.tolerance(tolerance)
        let before = try RunGate.readReport(baseline)
        let after = try RunGate.readReport(current)
        let comparison = ReportComparison(baseline: before, current: after, tolerancePercent: tolerancePercent)
        print("baseline \(baseline) (\(before.scenario), \(before.startedAt)) → current \(current) (\(after.scenario), \(after.startedAt))")
        print(ComparisonTable.render(comparison))
        for (name, report) in [("baseline", before), ("current", after)] where !report.generator.healthy {
            print(
                "warning: the \(name) run's generator was saturated (\(report.generator.problems.joined(separator: "; "))): its figures are not to be trusted"
            )
        }
        if !comparison.regressions.isEmpty { throw ExitCode(1) }
    }
}
