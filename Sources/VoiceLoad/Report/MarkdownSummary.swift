import Foundation

/// summary.md: the run in GitHub-flavoured Markdown, for a CI step summary
/// (`cat summary.md >> "$GITHUB_STEP_SUMMARY"`).
package enum MarkdownSummary {
    package static func render(_ report: RunReport) -> String {
        let verdict = ReportVerdict(report)
        let mark = verdict.outcome == .passed ? "✅" : verdict.outcome == .failed ? "❌" : "⚠️"
        var lines = [
            "## \(mark) vload \(cell(report.scenario)): \(verdict.label)",
            "",
            "\(verdict.headline). \(SummaryTable.loadText(report.config)) · \(report.sessions.started) sessions "
                + "(\(SummaryTable.outcomesText(report.sessions))) · "
                + "\(report.turns.values.reduce(0, +)) turns · \(report.errors.total) errors · "
                + String(format: "%.1f s", report.durationS) + " · dialect `\(report.config.dialect)`",
            "",
        ]
        for outage in report.outages ?? [] { lines += ["**\(outage.text.prefix(1).uppercased() + outage.text.dropFirst())**", ""] }
        if let windDown = SummaryTable.windDownText(report) { lines += ["**\(windDown)**", ""] }
        if let insecure = SummaryTable.insecureText(report) { lines += ["**\(insecure)**", ""] }
        if let reconnects = SummaryTable.reconnectText(report) { lines += [reconnects, ""] }
        if let continuity = SummaryTable.continuityText(report) { lines += [continuity, ""] }
        if let dropped = report.sessions.dropped, dropped > 0 {
            lines += ["**Dropped starts:** " + SummaryTable.droppedText(report), ""]
        }
        lines += [
            "| metric | count | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for (name, metric) in HTMLReport.tableMetrics(report) {
            let count = String(metric?.count ?? 0) + (metric?.lowSample == true ? "\\*" : "")
            let figures = [metric?.p50, metric?.p95, metric?.p99, metric?.max].map(HTMLText.ms)
            lines.append("| `\(name)` | \(count) | " + figures.joined(separator: " | ") + " |")
        }
        if !report.thresholds.isEmpty {
            lines += ["", "### Thresholds", "", "| | threshold | bound | measured | note |", "|---|---|---:|---:|---|"]
            for threshold in report.thresholds {
                let bound = threshold.comparison + " " + HTMLText.figure(threshold.bound, unit: threshold.unit)
                lines.append(
                    "| \(threshold.passed ? "✅" : threshold.isInvalid ? "⚠️" : "❌") | `\(cell(threshold.expression))` | \(cell(bound)) | "
                        + "\(HTMLText.figure(threshold.measured, unit: threshold.unit)) | \(cell(threshold.reason ?? "")) |"
                )
            }
        }
        if !report.errors.byClass.isEmpty {
            lines += ["", "### Errors", "", "| category | class | count | first example |", "|---|---|---:|---|"]
            for group in report.errors.grouped {
                for errorClass in group.classes {
                    let example = report.errors.examples[errorClass.name]?.first.map(SummaryTable.exampleText) ?? ""
                    // The server's words: angle brackets escaped, so GitHub shows them rather than reading tags.
                    let text = cell(example).replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
                    lines.append("| \(group.category) | `\(cell(errorClass.name))` | \(errorClass.count) | \(text) |")
                }
            }
        }
        if report.interruptions.bargeIns > 0 {
            let counts = report.interruptions
            lines += [
                "",
                "Barge-ins: \(counts.bargeIns) · acknowledged \(counts.acknowledged) · missed \(counts.missed)"
                    + " · audio already delivered \(counts.audioAlreadyDelivered)",
            ]
        }
        if let rate = report.interruptions.falseBargeInRatePercent {
            let counts = report.interruptions
            lines += [
                "",
                "Backchannels: \(counts.backchannels) · the agent stopped for \(counts.backchannelsStopped)"
                    + " (false_barge_in_rate \(String(format: "%.1f", rate))%)",
            ]
        }
        if !report.generator.healthy {
            lines += ["", "> **Generator saturated:** " + cell(report.generator.problems.joined(separator: "; "))]
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// Text safe inside a table cell: pipes escaped, newlines flattened.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
