import Foundation

/// `vload compare`'s output: one row per metric, label and percentile.
package enum ComparisonTable {
    package static func render(_ comparison: ReportComparison) -> String {
        guard !comparison.rows.isEmpty else { return "no latency metric has samples in both reports" }
        var rows = [["metric", "pctl", "baseline ms", "current ms", "change", "95% intervals (ms)", "verdict"]]
        for row in comparison.rows {
            let name = row.metric + (row.label.map { "{label=\($0)}" } ?? "")
            let intervals =
                pair(row.baselineInterval, row.currentInterval).map { pair in "\(range(pair.0)) → \(range(pair.1))" }
                ?? "n=\(row.baselineCount) → n=\(row.currentCount)"
            let sign = row.changePercent > 0 ? "+" : ""
            rows.append([
                name, row.percentile, String(format: "%.1f", row.baselineMs), String(format: "%.1f", row.currentMs),
                "\(sign)\(String(format: "%.1f", row.changePercent))%", intervals, row.verdict.rawValue,
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.enumerated().map { column, cell in cell.padding(toLength: widths[column], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        lines.append("")
        let regressions = comparison.regressions
        if regressions.isEmpty {
            lines.append(
                "no regression (tolerance \(String(format: "%g", comparison.tolerancePercent))%, beyond bootstrap noise "
                    + "and a \(String(format: "%g", comparison.noiseFloorMs)) ms noise floor)"
            )
        } else {
            for row in regressions {
                lines.append(
                    "REGRESSION \(row.metric)\(row.label.map { "{label=\($0)}" } ?? "").\(row.percentile): "
                        + "\(String(format: "%.1f", row.baselineMs)) ms → \(String(format: "%.1f", row.currentMs)) ms (+\(String(format: "%.1f", row.changePercent))%)"
                )
            }
        }
        if comparison.rows.contains(where: { $0.verdict == .lowSample }) {
            lines.append("low sample: fewer than \(ReportComparison.minimumSamples) samples on a side; never judged a regression")
        }
        return lines.joined(separator: "\n")
    }

    private static func range(_ range: ClosedRange<Double>) -> String {
        String(format: "%.0f–%.0f", range.lowerBound, range.upperBound)
    }

    private static func pair(_ first: ClosedRange<Double>?, _ second: ClosedRange<Double>?) -> (ClosedRange<Double>, ClosedRange<Double>)? {
        guard let first, let second else { return nil }
        return (first, second)
    }
}
