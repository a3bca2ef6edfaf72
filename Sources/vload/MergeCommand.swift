import ArgumentParser
import Foundation
import VoiceLoad

/// `vload merge REPORT...`: the reports of a split run (`--segment i/n`) combined into one.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the report.json files of a run split with --segment i/n into the report of the whole run.",
        discussion: """
            Counts are summed and every metric's HDR histogram is merged, so the merged counts \
            and percentiles are exactly what one process would have measured (to the \
            histogram's three significant digits). The reports must be of one scenario, \
            dialect and frame length; segmented reports must be every segment 1/n … n/n once. \
            The merged report is judged by the thresholds the parts were run with plus any \
            --threshold, and written with its renderings (report.html, junit.xml, summary.md) \
            to --out. The recordings the parts made (--record) are gathered into \
            OUT/recordings/: those the parts' policy keeps for the whole run, capped at the \
            parts' --record-max-mb. The timeline is laid out on the wall clock (the machines' clocks must \
            agree); its per-second percentiles are approximate, the run's are exact.

            Exit codes as for a run: 0 every threshold passed; 1 one failed; 2 bad input (an \
            unreadable report, or reports that are not parts of one run); 3 a part's generator \
            was saturated, or a threshold could not be judged; 4 no session reached the endpoint.
            """
    )

    @Argument(help: ArgumentHelp("The report.json of each part (at least two).", valueName: "report.json"))
    var reports: [String]

    @Option(help: "Directory for the merged report (default: reports/<scenario>-merged-<UTC time>).")
    var out: String?

    @Option(
        name: .customLong("threshold"),
        help: ArgumentHelp(
            "A pass/fail bound judged on the merged run (repeatable; added to the thresholds the parts ran with).",
            valueName: "expr"
        )
    )
    var thresholds: [String] = []

    func run() throws {
        guard reports.count >= 2 else { throw InputError("merge needs at least two report.json files (got \(reports.count))") }
        let parts = try reports.map { path throws(InputError) in try RunGate.readReport(path) }
        var merged = try ReportMerge.merge(parts, names: reports)
        let recordings = try RecordingMerge.select(parts.map(\.recordings), names: reports)
        var expressions: [ThresholdExpression] = []
        var seen = Set<String>()
        let defaults = Set(parts.flatMap { $0.thresholds.filter { $0.isDefault == true }.map(\.expression) })
        for text in parts.flatMap({ $0.thresholds.map(\.expression) }) + thresholds where seen.insert(text).inserted {
            var expression = try ThresholdExpression.parse(text)
            expression.isDefault = defaults.contains(text) && !thresholds.contains(text)
            expressions.append(expression)
        }
        merged.thresholds = ThresholdEvaluator.evaluate(expressions, on: merged).map(\.result)
        let directory =
            out.map { URL(fileURLWithPath: $0) }
            ?? LoadRun.defaultOutputDirectory(scenario: merged.scenario + "-merged")
        var missingRecordings = 0
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if let recordings {
                let partDirectories = reports.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
                let copied = try RecordingMerge.copy(recordings.picks, summary: recordings.summary, from: partDirectories, to: directory)
                merged.recordings = copied.summary
                missingRecordings = copied.missing
            }
            try merged.jsonData().write(to: directory.appendingPathComponent("report.json"))
            try ReportFiles.write(merged, to: directory)
        } catch {
            throw InputError("cannot write the merged report to \(directory.path): \(FileErrorText.reason(of: error))")
        }
        print("merged \(parts.count) reports (\(merged.sessions.started) sessions) → \(directory.path)/")
        print("")
        print(SummaryTable.render(merged))
        print("reports: \(directory.path)/report.json, report.html, junit.xml, summary.md")
        if let recordings = merged.recordings { print(recordings.line(directory: directory.path)) }
        if missingRecordings > 0 {
            FileHandle.standardError.write(
                Data("warning: \(missingRecordings) recordings to keep were not found beside their part's report.json (copy each part's recordings/ with it)\n".utf8)
            )
        }
        let verdict = RunGate(expressions: expressions).judge(merged)
        if verdict != .passed { throw ExitCode(verdict.rawValue) }
    }
}
