import Foundation

/// report.html: the run for a person to read, in one self-contained file (inline CSS and SVG,
/// no fonts or network; the recordings' WAVs are linked by relative path, and their one inline
/// script moves a player to a clicked mark). The same report and recordings always render to
/// the same bytes.
package enum HTMLReport {
    /// The page up to `<body>`: the title, the shared style and the chart count the Chromium check reads.
    static func documentStart(title: String, chartCount: Int) -> [String] {
        [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta name=\"vload-charts\" content=\"\(chartCount)\">",
            "<title>\(HTMLText.escape(title))</title>",
            "<style>\(style)</style>",
            "</head>",
            "<body>",
        ]
    }

    /// `recordings`: the recorded calls, read from the report's directory (`RecordingView.load`).
    package static func render(_ report: RunReport, recordings: [RecordingView] = []) -> String {
        let verdict = ReportVerdict(report)
        let charts =
            [latencyOverTime(report), sessionsOverTime(report)]
            + tableMetrics(report).compactMap { name, metric in
                metric.flatMap { $0.count > 0 ? distribution(name: name, metric: $0) : nil }
            }
        let title = "vload report: " + report.scenario
        let html =
            documentStart(title: title, chartCount: charts.count) + [
                "<header>",
                "<h1>\(HTMLText.escape(title))</h1>",
                "<p class=\"verdict \(verdict.outcome.rawValue)\"><strong>\(verdict.label)</strong> · \(HTMLText.escape(verdict.headline))</p>",
                definitionList(facts(report)),
                "</header>",
                "<main>",
                section("Summary", summaryTable(report)),
                section("Thresholds", thresholdTable(report)),
                section(
                    "Over time",
                    ([charts[0].render()] + [RecordingsHTML.slowestLink(recordings)].compactMap { $0 } + [charts[1].render()]).joined(
                        separator: "\n"
                    )
                ),
                section("Latency distributions", charts.dropFirst(2).map { $0.render() }.joined(separator: "\n")),
                section("Errors", errorTable(report)),
                section("Interruptions", interruptionList(report)),
                section("Audio continuity", continuityList(report)),
                rtpSection(report) ?? "",
                section("Per label", labelTable(report)),
                report.recordings.map { section("Recordings", RecordingsHTML.section($0, recordings)) } ?? "",
                section("Generator", definitionList(generatorFacts(report))),
                "</main>",
                "<footer>Rendered from report.json by vload \(HTMLText.escape(report.version)).</footer>",
                "</body>",
                "</html>",
                "",
            ]
        return html.joined(separator: "\n")
    }

    /// The metrics the summary shows: every metric the dialect measures (n/a without samples),
    /// any other with samples, then the generator's send lag.
    static func tableMetrics(_ report: RunReport) -> [(String, MetricReport?)] {
        let measured = Set(report.config.metricsMeasured)
        let endpoint: [(String, MetricReport?)] = MetricName.endpointMetrics.compactMap { metric in
            let figures = report.metrics[metric.rawValue]
            guard measured.contains(metric.rawValue) || (figures?.count ?? 0) > 0 else { return nil }
            return (metric.rawValue, figures)
        }
        return endpoint + [(MetricName.sendLagMs.rawValue, report.generator.sendLagMs)]
            + (report.generator.receiveLagMs.map { [(MetricName.receiveLagMs.rawValue, $0)] } ?? [])
    }

    private static func facts(_ report: RunReport) -> [(String, String)] {
        let config = report.config
        let extent =
            config.durationS.map { "for \(SVGChart.label($0)) s" }
            ?? "\(config.iterations ?? 1) iteration\(config.iterations == 1 ? "" : "s") each"
        let load =
            (config.load?.model ?? "closed") == "closed"
            ? "\(SummaryTable.loadText(config)), ramp-up \(SVGChart.label(config.rampUpS)) s, " + extent
            : SummaryTable.loadText(config)
        let turns = report.turns.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var facts: [(String, String)] = [
            ("Scenario", "\(report.scenario) (\(report.scenarioFile))"),
            ("Endpoint", config.url + (config.simulator != nil ? " (built-in simulator)" : "")),
            ("Dialect", config.dialect),
            ("Load", load),
            ("Started", report.startedAt),
            ("Ended", report.endedAt + (report.interrupted ? " (interrupted)" : "")),
            ("Duration", String(format: "%.1f s", report.durationS)),
            ("Sessions", "\(report.sessions.started) started, " + SummaryTable.outcomesText(report.sessions)),
            ("Turns", turns.isEmpty ? "0" : turns),
        ]
        if let attempts = report.connectionAttempts, attempts.failedBeforeReady > 0 {
            facts.append(("Connection attempts", "\(attempts.total) (\(attempts.failedBeforeReady) failed before ready)"))
        }
        for outage in report.outages ?? [] { facts.append(("Outage", outage.text)) }
        if let windDown = SummaryTable.windDownText(report) { facts.append(("Wound down", windDown)) }
        if let insecure = SummaryTable.insecureText(report) { facts.append(("TLS", insecure)) }
        if let reconnects = SummaryTable.reconnectText(report) { facts.append(("Reconnects", reconnects)) }
        if let dropped = report.sessions.dropped, dropped > 0 {
            facts.append(("Dropped starts", SummaryTable.droppedText(report)))
        }
        if report.toolCalls.calls > 0 || report.toolCalls.results > 0 {
            facts.append(("Tool calls", "\(report.toolCalls.calls) made by the agent, \(report.toolCalls.results) answered"))
        }
        if !report.stepTimeouts.isEmpty {
            facts.append(("Steps timed out", SummaryTable.countsText(report.stepTimeouts)))
        }
        if report.unknownEvents > 0 { facts.append(("Unknown events", String(report.unknownEvents))) }
        if let warnings = report.warnings, !warnings.isEmpty {
            facts.append(("Server warnings", warnings.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        }
        return facts
    }

    private static func generatorFacts(_ report: RunReport) -> [(String, String)] {
        let generator = report.generator
        return [
            ("Health", generator.healthy ? "healthy" : "SATURATED: " + generator.problems.joined(separator: "; ")),
            ("Frames sent", String(generator.framesSent)),
            ("send_lag_ms p99", HTMLText.ms(generator.sendLagMs.p99)),
            ("receive_lag_ms p99", HTMLText.ms(generator.receiveLagMs?.p99)),
            (
                "CPU",
                "\(generator.cpuPercentOfOneCore)% of one core (\(String(format: "%.3f", generator.cpuSeconds)) s, \(generator.cores) cores)"
            ),
        ]
    }

    private static func summaryTable(_ report: RunReport) -> String {
        let rows = tableMetrics(report).map { name, metric -> [String] in
            let count = String(metric?.count ?? 0) + (metric?.lowSample == true ? "*" : "")
            return ["<code>\(name)</code>", count]
                + [metric?.min, metric?.mean, metric?.p50, metric?.p90, metric?.p95, metric?.p99, metric?.max].map(HTMLText.ms)
        }
        let note =
            rows.contains { $0[1].hasSuffix("*") }
            ? "\n<p class=\"note\">* fewer than 20 samples: percentiles are indicative only. n/a: no samples.</p>" : ""
        return table(
            ["metric", "count", "min", "mean", "p50", "p90", "p95", "p99", "max"],
            rows,
            caption: "Latencies in milliseconds",
            escape: false
        ) + note
    }

    private static func thresholdTable(_ report: RunReport) -> String {
        guard !report.thresholds.isEmpty else { return "<p>No thresholds were given.</p>" }
        let rows = report.thresholds.map { threshold in
            [
                threshold.passed
                    ? "<span class=\"pass\">pass</span>"
                    : threshold.isInvalid ? "<span class=\"fail\">INVALID</span>" : "<span class=\"fail\">FAIL</span>",
                "<code>\(HTMLText.escape(threshold.expression))</code>",
                HTMLText.escape(threshold.label ?? "all"),
                HTMLText.escape(threshold.comparison + " " + HTMLText.figure(threshold.bound, unit: threshold.unit)),
                HTMLText.escape(HTMLText.figure(threshold.measured, unit: threshold.unit)),
                HTMLText.escape(threshold.reason ?? ""),
            ]
        }
        return table(["result", "threshold", "label", "bound", "measured", "note"], rows, caption: nil, escape: false)
    }

    private static func errorTable(_ report: RunReport) -> String {
        guard !report.errors.byClass.isEmpty else { return "<p>No errors.</p>" }
        var rows: [[String]] = []
        for group in report.errors.grouped {
            for errorClass in group.classes {
                let example = report.errors.examples[errorClass.name]?.first.map(SummaryTable.exampleText) ?? ""
                rows.append([group.category, errorClass.name, String(errorClass.count), example])
            }
        }
        rows.append(["total", "", String(report.errors.total), ""])
        return table(
            ["category", "class", "count", "first example"],
            rows,
            caption: "Errors by category, each with its first occurrence (redacted)",
            escape: true
        )
    }

    private static func interruptionList(_ report: RunReport) -> String {
        let counts = report.interruptions
        guard counts.bargeIns > 0 else { return "<p>No barge-ins in this scenario.</p>" }
        return definitionList([
            ("Barge-ins", String(counts.bargeIns)), ("Acknowledged", String(counts.acknowledged)),
            ("Missed (missed_interruption)", String(counts.missed)), ("Audio already delivered", String(counts.audioAlreadyDelivered)),
        ])
    }

    private static func continuityList(_ report: RunReport) -> String {
        guard let counts = report.audioContinuity, let rate = counts.stalledTurnRatePercent else {
            return "<p>No reply with agent audio in this run.</p>"
        }
        let rtf = counts.replyRTF
        let rtfText = rtf.min.flatMap { min in
            rtf.mean.map { String(format: "min %.3f · mean %.3f · max %.3f (%d replies)", min, $0, rtf.max ?? $0, rtf.count) }
        }
        return definitionList([
            ("Replies with audio", String(counts.turnsWithAudio)),
            ("Stalled (stalled_turn_rate)", "\(counts.stalledTurns) (\(String(format: "%.1f", rate))%)"),
            ("Stalls", String(counts.stalls)),
            ("reply_rtf", rtfText ?? "n/a"),
        ])
    }

    private static func labelTable(_ report: RunReport) -> String {
        var rows: [[String]] = []
        for (label, metrics) in report.labels.sorted(by: { $0.key < $1.key }) {
            for metric in MetricName.allCases {
                guard let figures = metrics[metric.rawValue], figures.count > 0 else { continue }
                let count = String(figures.count) + (figures.lowSample == true ? "*" : "")
                rows.append([label, metric.rawValue, count] + [figures.p50, figures.p95, figures.max].map(HTMLText.ms))
            }
        }
        guard !rows.isEmpty else { return "<p>No labelled turns.</p>" }
        return table(
            ["label", "metric", "count", "p50", "p95", "max"],
            rows,
            caption: "Turn metrics per label, in milliseconds",
            escape: true
        )
    }

    static func section(_ heading: String, _ body: String) -> String {
        let id = SVGChart.slug(heading)
        return "<section aria-labelledby=\"\(id)\">\n<h2 id=\"\(id)\">\(heading)</h2>\n\(body)\n</section>"
    }

    static func definitionList(_ items: [(String, String)]) -> String {
        "<dl>" + items.map { "<dt>\(HTMLText.escape($0.0))</dt><dd>\(HTMLText.escape($0.1))</dd>" }.joined() + "</dl>"
    }

    static func table(_ header: [String], _ rows: [[String]], caption: String?, escape: Bool) -> String {
        var lines = ["<table>"]
        if let caption { lines.append("<caption>\(HTMLText.escape(caption))</caption>") }
        lines.append("<thead><tr>" + header.map { "<th scope=\"col\">\(HTMLText.escape($0))</th>" }.joined() + "</tr></thead>")
        lines.append("<tbody>")
        for row in rows {
            lines.append("<tr>" + row.map { "<td>\(escape ? HTMLText.escape($0) : $0)</td>" }.joined() + "</tr>")
        }
        lines += ["</tbody>", "</table>"]
        return lines.joined(separator: "\n")
    }

    private static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;margin:0 auto;max-width:940px;padding:16px 24px}
        h1{font-size:22px;margin:8px 0}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
        .verdict{font-size:16px;padding:8px 12px;border-radius:6px}.verdict.passed{background:#dcfce7}
        .verdict.failed{background:#fee2e2}.verdict.invalid{background:#fef3c7}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}dt{color:#4b5563}dd{margin:0}
        table{border-collapse:collapse;margin:8px 0}caption{text-align:left;color:#4b5563;padding-bottom:4px}
        th,td{border-bottom:1px solid #e5e7eb;padding:3px 10px;text-align:right}th:first-child,td:first-child{text-align:left}
        th{background:#f9fafb}.pass{color:#15803d;font-weight:600}.fail{color:#b91c1c;font-weight:700}
        .note,footer{color:#6b7280;font-size:12px}footer{margin-top:32px}
        svg.chart{display:block;margin:12px 0;max-width:100%;height:auto}svg.chart text{font-size:11px;fill:#374151}
        svg.chart .chart-title{font-size:13px;font-weight:600;fill:#111827}svg.chart .axis-label{fill:#4b5563}
        svg.chart .grid{stroke:#e5e7eb}svg.chart .axis{stroke:#6b7280}svg.chart .no-data{fill:#9ca3af;font-size:13px}
        .slowest{font-weight:600}article.recording{margin:16px 0 24px}h3{font-size:15px;margin:8px 0}
        svg.waveform{display:block;max-width:100%;height:auto;background:#f9fafb}svg.waveform text{font-size:11px}audio{width:100%}
        svg.waveform g.mark{cursor:pointer}svg.waveform .hit{stroke:transparent;stroke-width:10}
        .marks button{font:12px system-ui,sans-serif;margin:2px 0;padding:1px 6px;border:1px solid #d1d5db;border-radius:4px;background:#fff;cursor:pointer}
        """
}
