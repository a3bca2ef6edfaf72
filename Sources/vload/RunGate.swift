import Foundation
import VoiceLoad

/// The CI gate of `vload run`: thresholds (scenario + `--threshold`), warm-up and
/// `--baseline`, checked before the run (bad input exits 2) and judged after it.
struct RunGate {
    var expressions: [ThresholdExpression]
    var warmupMs: Int
    var baseline: (path: String, report: RunReport)?
    var tolerancePercent: Double

    /// With no threshold from the scenario or the command line, the run is judged by
    /// `ThresholdExpression.defaultErrorRate` unless `defaultThresholds` is off.
    init(
        scenario: Scenario,
        thresholds: [String],
        warmup: String?,
        baseline: String?,
        tolerance: String,
        defaultThresholds: Bool = true
    ) throws(InputError) {
        var expressions = scenario.thresholds
        for text in thresholds { expressions.append(try ThresholdExpression.parse(text)) }
        if expressions.isEmpty, defaultThresholds { expressions = [.defaultErrorRate] }
        self.expressions = expressions
        warmupMs = try warmup.map { text throws(InputError) in try DurationText.milliseconds(text, option: "--warmup") } ?? 0
        tolerancePercent = try Self.tolerance(tolerance)
        self.baseline = try baseline.map { path throws(InputError) in (path: path, report: try Self.readReport(path)) }
    }

    /// Thresholds alone (no warm-up, no baseline): `vload merge`.
    init(expressions: [ThresholdExpression]) {
        self.expressions = expressions
        warmupMs = 0
        tolerancePercent = 10
        baseline = nil
    }

    /// Prints the verdict table (and the comparison with the baseline) and returns the verdict.
    /// A segment of a split run is one share of the load: its thresholds are shown but judged
    /// on the whole run by `vload merge`, so only the generator's health and reachability decide.
    /// The thresholds were judged into `report.thresholds` when it was built; they are read from there.
    func judge(_ report: RunReport, segment: LoadSegment = .whole) -> GateVerdict {
        let checks = report.thresholds.map { ThresholdCheck(result: $0) }
        let table = VerdictTable.render(checks)
        if !table.isEmpty {
            print("")
            table.forEach { print($0) }
        }
        var regression = false
        if let baseline {
            let comparison = ReportComparison(baseline: baseline.report, current: report, tolerancePercent: tolerancePercent)
            print("")
            print("compared with \(baseline.path):")
            print(ComparisonTable.render(comparison))
            regression = !comparison.regressions.isEmpty
        }
        let judged = segment.isWhole ? checks : []
        let verdict = RunVerdict(report: report, checks: judged, regression: regression)
        print("")
        if !segment.isWhole, !checks.isEmpty {
            print("segment \(segment): the thresholds above are this share's; 'vload merge' judges them on the whole run")
        }
        print(verdict.summaryLine)
        return verdict.outcome
    }

    /// `10%` or `10` → 10.
    static func tolerance(_ text: String) throws(InputError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let number = trimmed.hasSuffix("%") ? String(trimmed.dropLast()) : trimmed
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value >= 0, value.isFinite else {
            throw InputError("invalid --tolerance '\(text)': use a percentage like 10%")
        }
        return value
    }

    /// A report.json, or a one-line error.
    static func readReport(_ path: String) throws(InputError) -> RunReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw InputError("cannot read report \(path): \(FileErrorText.reason(of: error))")
        }
        do {
            return try RunReport.decode(from: data)
        } catch {
            throw InputError("\(path) is not a vload report.json: \(FileErrorText.decoding(error))")
        }
    }
}
