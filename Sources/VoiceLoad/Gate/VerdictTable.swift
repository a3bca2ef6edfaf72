/// The thresholds of a run as a table on stdout, printed after the summary.
package enum VerdictTable {
    package static func render(_ checks: [ThresholdCheck]) -> [String] {
        guard !checks.isEmpty else { return [] }
        var rows = [["threshold", "bound", "measured", "verdict"]]
        for check in checks {
            let bound =
                "\(check.result.comparison) \(format(check.result.bound))\(check.result.unit.isEmpty ? "" : " " + check.result.unit)"
            let verdict: String
            switch check.status {
            case .passed: verdict = "pass"
            case .failed: verdict = "FAILED"
            case .invalid: verdict = "INVALID: " + (check.result.reason ?? "")
            }
            let expression = check.result.expression + (check.result.isDefault == true ? " (default)" : "")
            rows.append([expression, bound, check.measuredText, verdict])
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = ["thresholds:"]
        lines += rows.map { row in
            row.enumerated().map { column, cell in
                column == 3 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        lines += checks.filter { $0.status == .failed }.map(\.line)
        return lines
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
