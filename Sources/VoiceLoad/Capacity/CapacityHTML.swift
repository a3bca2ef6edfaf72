import Foundation

/// capacity.html: the capacity search for a person, in one self-contained file (inline CSS and
/// SVG, no scripts): the answer, a chart per SLO of its figure against concurrency with the
/// bound drawn and each step marked passed or failed, and the steps.
package enum CapacityHTML {
    package static func render(_ report: CapacityReport) -> String {
        let charts = report.slos.map { chart(slo: $0, report) }
        let outcomeClass = report.outcome == "found" ? "passed" : report.outcome == "first_step_failed" ? "failed" : "invalid"
        let title = "vload capacity: " + report.scenario
        let html =
            HTMLReport.documentStart(title: title, chartCount: charts.count) + [
                "<header>",
                "<h1>\(HTMLText.escape(title))</h1>",
                "<p class=\"verdict \(outcomeClass)\"><strong>\(HTMLText.escape(report.answer))</strong></p>",
                HTMLReport.definitionList(facts(report)),
                "</header>",
                "<main>",
                HTMLReport.section("SLOs against concurrency", charts.map { $0.render() }.joined(separator: "\n")),
                HTMLReport.section("Steps", stepTable(report)),
                HTMLReport.section("Simulator", simulatorFacts(report)),
                "</main>",
                "<footer>Rendered from capacity.json by vload \(HTMLText.escape(report.version)).</footer>",
                "</body>",
                "</html>",
                "",
            ]
        return html.joined(separator: "\n")
    }

    /// One SLO's figure at each step (a line), the steps marked passed or failed on it, and its bound.
    static func chart(slo: String, _ report: CapacityReport) -> SVGChart {
        let figures = report.steps.compactMap { step -> (clients: Int, result: ThresholdResult)? in
            step.slos.first { $0.expression == slo }.map { (step.clients, $0) }
        }.sorted { $0.clients < $1.clients }
        func points(_ status: ThresholdStatus? = nil) -> [(x: Double, y: Double)] {
            figures.filter { status == nil || $0.result.status == status }
                .compactMap { figure in figure.result.measured.map { (x: Double(figure.clients), y: $0) } }
        }
        let measured = points()
        let unit = figures.first?.result.unit ?? ""
        let bound = figures.first?.result.bound
        let comparison = figures.first?.result.comparison ?? ""
        var series: [SVGChart.Series] = []
        if !measured.isEmpty {
            let low = measured.first?.x ?? 0
            let high = measured.last?.x ?? 1  // sorted by clients
            series = [
                SVGChart.Series(name: "measured", color: "#2563eb", style: .line, points: measured),
                SVGChart.Series(name: "passed", color: "#16a34a", style: .markers, points: points(.passed)),
                SVGChart.Series(name: "failed", color: "#dc2626", style: .markers, points: points(.failed)),
            ]
            if let bound {
                series.append(SVGChart.Series(name: "SLO bound", color: "#6b7280", style: .dashed, points: [(low, bound), (high, bound)]))
            }
        }
        let boundText = bound.map { " (SLO \(comparison) \(HTMLText.figure($0, unit: unit)))" } ?? ""
        return SVGChart(
            title: metricName(slo) + boundText,
            xLabel: "concurrent clients",
            yLabel: unit.isEmpty ? "count" : unit,
            series: series
        )
    }

    /// The left side of an SLO expression: `first_audio_from_end_ms.p95`.
    static func metricName(_ slo: String) -> String {
        let cut = ThresholdExpression.findComparison(in: slo)?.1.lowerBound ?? slo.endIndex
        return slo[..<cut].trimmingCharacters(in: .whitespaces)
    }

    private static func facts(_ report: CapacityReport) -> [(String, String)] {
        let search = report.search
        return [
            ("Scenario", "\(report.scenario) (\(report.scenarioFile))"),
            ("Endpoint", report.url + (report.simulator != nil ? " (built-in simulator)" : "")),
            ("Dialect", report.dialect),
            ("SLOs", report.slos.joined(separator: ", ")),
            (
                "Search",
                "from \(search.startClients) clients, step \(search.step), at most \(search.maxClients), "
                    + "resolution \(search.resolutionClients) clients"
            ),
            (
                "Each step",
                "ramp-up \(SVGChart.label(search.rampUpS)) s, warm-up \(SVGChart.label(search.warmupS)) s, "
                    + "hold \(SVGChart.label(search.holdS)) s"
                    + (search.maxHoldS.map { ", extended for samples up to \(SVGChart.label($0)) s" } ?? "")
            ),
            ("Highest passing", report.highestPassing.map { "\($0) clients" } ?? "none"),
            ("First failing", report.firstFailing.map { "\($0.clients) clients: " + $0.reasons.joined(separator: "; ") } ?? "none"),
            (
                "Within noise",
                report.withinNoise.map {
                    $0.map { "\($0) clients" }.joined(separator: ", ") + " (ran twice; passes only if both attempts passed)"
                } ?? "none"
            ),
            ("Started", report.startedAt),
            ("Ended", report.endedAt),
        ]
    }

    private static func stepTable(_ report: CapacityReport) -> String {
        guard !report.steps.isEmpty else { return "<p>No steps ran.</p>" }
        let header =
            ["step", "clients", "verdict"] + report.slos.map(metricName)
            + ["sessions", "failed", "errors", "generator", "notes", "report"]
        let rows = report.steps.enumerated().map { index, step -> [String] in
            let verdictClass = step.verdict == .passed ? "pass" : "fail"
            let figures = report.slos.map { slo -> String in
                guard let result = step.slos.first(where: { $0.expression == slo }) else { return "n/a" }
                let interval = step.intervals?.first { $0.expression == slo }.map { " (95%: \($0.rangeText))" } ?? ""
                let text = HTMLText.escape(ThresholdCheck(result: result).measuredText + interval)
                return result.status == .passed ? text : "<span class=\"fail\">\(text) (\(result.status.rawValue))</span>"
            }
            var notes = [String]()
            if let attempt = step.attempt { notes.append("attempt \(attempt) of 2") }
            if step.withinNoise == true { notes.append("within noise") }
            if let hold = step.holdExtension { notes.append(hold.text) }
            let directory = HTMLText.escape((step.report as NSString).deletingLastPathComponent)
            return [
                String(index + 1), String(step.clients), "<span class=\"\(verdictClass)\">\(HTMLText.escape(step.verdict.rawValue))</span>",
            ]
                + figures
                + [
                    String(step.sessions.started), String(step.sessions.failed), String(step.errors),
                    step.generator.healthy ? "healthy" : "<span class=\"fail\">saturated</span>",
                    HTMLText.escape(notes.joined(separator: "; ")),
                    "<a href=\"\(directory)/report.html\">\(directory)</a>",
                ]
        }
        return HTMLReport.table(header, rows, caption: "In the order they ran; figures after each step's warm-up", escape: false)
    }

    private static func simulatorFacts(_ report: CapacityReport) -> String {
        guard let simulator = report.simulator else { return "<p>Not used: the steps ran against \(HTMLText.escape(report.url)).</p>" }
        return HTMLReport.definitionList(simulator.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
