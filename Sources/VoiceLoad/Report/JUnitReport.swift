import Foundation

/// junit.xml: one test suite `vload`, one test case per threshold (a `failure` naming the bound
/// and the measured value when it failed). Without thresholds, one test case: the run completed
/// without errors and the generator was healthy. With thresholds, a run whose generator was
/// saturated or that never reached the endpoint gets one more test case that fails, so the file
/// never shows a pass the exit code (`RunVerdict`) does not.
package enum JUnitReport {
    package static func render(_ report: RunReport) -> String {
        let cases = testCases(report)
        let failures = cases.filter { $0.failure != nil }.count
        let time = String(format: "%.3f", report.durationS)
        let suiteAttributes = "name=\"vload\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(time)\""
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites \(suiteAttributes)>",
            "  <testsuite \(suiteAttributes)>",
            "    <properties>",
        ]
        let properties = [
            ("scenario", report.scenario), ("dialect", report.config.dialect), ("url", report.config.url),
            ("clients", String(report.config.clients)), ("started_at", report.startedAt), ("vload_version", report.version),
        ]
        lines += properties.map { "      <property name=\"\($0.0)\" value=\"\(HTMLText.escape($0.1))\"/>" }
        lines.append("    </properties>")
        let className = HTMLText.escape("vload." + report.scenario)
        for testCase in cases {
            let opening = "    <testcase classname=\"\(className)\" name=\"\(HTMLText.escape(testCase.name))\" time=\"0\""
            guard let failure = testCase.failure else {
                lines.append(opening + "/>")
                continue
            }
            lines.append(opening + ">")
            lines.append(
                "      <failure message=\"\(HTMLText.escape(failure.message))\" type=\"\(failure.type)\">"
                    + HTMLText.escape(failure.detail) + "</failure>"
            )
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>", ""]
        return lines.joined(separator: "\n")
    }

    struct TestCase {
        var name: String
        var failure: (message: String, type: String, detail: String)?
    }

    static func testCases(_ report: RunReport) -> [TestCase] {
        guard report.thresholds.isEmpty else { return thresholdCases(report) + trustCase(report) }
        let name = "the run completed without errors and the generator was healthy"
        var problems: [String] = []
        if report.errors.total > 0 {
            problems.append("\(report.errors.total) errors: " + SummaryTable.countsText(report.errors.byClass))
        }
        if report.sessions.failed > 0 { problems.append("\(report.sessions.failed) sessions failed") }
        if report.interrupted, let interrupted = SummaryTable.windDownText(report) { problems.append(interrupted) }
        problems += report.generator.problems.map { "generator saturated: " + $0 }
        guard !problems.isEmpty else { return [TestCase(name: name)] }
        return [TestCase(name: name, failure: (problems.joined(separator: "; "), "run", problems.joined(separator: "\n")))]
    }

    /// One test case per threshold.
    private static func thresholdCases(_ report: RunReport) -> [TestCase] {
        report.thresholds.map { threshold in
            guard !threshold.passed else { return TestCase(name: threshold.expression) }
            let bound = HTMLText.figure(threshold.bound, unit: threshold.unit)
            let measured = HTMLText.figure(threshold.measured, unit: threshold.unit)
            var detail = "threshold: \(threshold.expression)\nbound: \(threshold.comparison) \(bound)\nmeasured: \(measured)"
            if let label = threshold.label { detail += "\nlabel: \(label)" }
            if let reason = threshold.reason { detail += "\nreason: \(reason)" }
            let message = "\(threshold.expression) failed: measured \(measured)" + (threshold.reason.map { " (\($0))" } ?? "")
            return TestCase(name: threshold.expression, failure: (message, "threshold", detail))
        }
    }

    /// A failing case when the verdict distrusts the figures for more than an unjudged
    /// threshold (which fails its own case): a saturated generator, an unreachable endpoint.
    private static func trustCase(_ report: RunReport) -> [TestCase] {
        let problems = RunVerdict(report).reasons.compactMap { reason -> String? in
            switch reason {
            case .generatorSaturated, .unreachable: return reason.text
            default: return nil
            }
        }
        guard !problems.isEmpty else { return [] }
        let name = "the run's figures can be trusted"
        return [TestCase(name: name, failure: (problems.joined(separator: "; "), "run", problems.joined(separator: "\n")))]
    }
}
