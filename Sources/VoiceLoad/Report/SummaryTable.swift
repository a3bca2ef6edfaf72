import Foundation

/// The human-readable summary of a run printed on stdout.
package enum SummaryTable {
    package static func render(_ report: RunReport) -> String {
        var lines: [String] = []
        let simulated = report.config.simulator != nil ? " (built-in simulator)" : ""
        lines.append(
            "vload \(report.version) · scenario \(report.scenario) · dialect \(report.config.dialect) · \(report.config.url)\(simulated)"
        )
        let turnsTotal = report.turns.values.reduce(0, +)
        let turnBreakdown = report.turns.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        lines.append(
            "\(loadText(report.config)) · \(report.sessions.started) sessions (\(outcomesText(report.sessions))) · "
                + "\(turnsTotal) turns\(turnBreakdown.isEmpty ? "" : " (\(turnBreakdown))") · "
                + "\(report.errors.total) errors · \(String(format: "%.1f", report.durationS)) s"
        )
        if let attempts = report.connectionAttempts, attempts.failedBeforeReady > 0 {
            lines.append("connection attempts: \(attempts.total) (\(attempts.failedBeforeReady) failed before ready)")
        }
        for outage in report.outages ?? [] { lines.append(outage.text) }
        if let windDown = windDownText(report) { lines.append(windDown) }
        if let insecure = insecureText(report) { lines.append(insecure) }
        lines.append("")
        let header = ["metric", "count", "min", "p50", "p90", "p95", "p99", "max"]
        var rows: [[String]] = [header]
        // Every metric the dialect measures (n/a when it had no samples), and any other with samples.
        let measured = Set(report.config.metricsMeasured)
        for metric in MetricName.endpointMetrics {
            let figures = report.metrics[metric.rawValue]
            guard measured.contains(metric.rawValue) || (figures?.count ?? 0) > 0 else { continue }
            rows.append(row(metric.rawValue, figures))
        }
        rows.append(row(MetricName.sendLagMs.rawValue, report.generator.sendLagMs))
        if let receiveLag = report.generator.receiveLagMs {
            rows.append(row(MetricName.receiveLagMs.rawValue, receiveLag))
        }
        if let startLag = report.generator.startLagMs, startLag.count > 0 {
            rows.append(row(MetricName.startLagMs.rawValue, startLag))
        }
        if let simulatorLate = report.generator.simulatorReplyLateMs, simulatorLate.count > 0 {
            rows.append(row("simulator_reply_late_ms", simulatorLate))
        }
        lines += align(rows)
        if rows.contains(where: { $0[1].hasSuffix("*") }) {
            lines.append("* fewer than 20 samples: percentiles are indicative only")
        }
        lines += labelLines(report)
        lines += interruptionLines(report)
        if let continuity = continuityText(report) { lines.append(continuity) }
        if let dropped = report.sessions.dropped, dropped > 0 {
            lines += ["", "DROPPED STARTS: " + droppedText(report)]
        }
        if let reconnects = reconnectText(report) { lines.append(reconnects) }
        if let callers = callerText(report) { lines.append(callers) }
        if report.toolCalls.calls > 0 || report.toolCalls.results > 0 {
            lines.append("tool calls: \(report.toolCalls.calls) made by the agent, \(report.toolCalls.results) answered")
        }
        if !report.stepTimeouts.isEmpty {
            lines.append("steps timed out (scenario went on): " + countsText(report.stepTimeouts))
        }
        lines += errorLines(report)
        if let injected = report.simulatorFaultsInjected {
            lines.append("simulator injected: " + injectedText(injected))
        }
        if let warnings = report.warnings, !warnings.isEmpty {
            lines.append(
                "server warnings (not errors): "
                    + warnings.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            )
        }
        if report.unknownEvents > 0 {
            lines.append("unknown server events (ignored): \(report.unknownEvents)")
            let types = report.unknownEventTypes ?? []
            for type in types { lines.append("  \(type.type) ×\(type.count): \(type.example)") }
            let unlisted = report.unknownEvents - types.map(\.count).reduce(0, +)
            if !types.isEmpty, unlisted > 0 {
                lines.append("  \(unlisted) more of other types (the first \(UnknownEventType.maxTypes) types are listed)")
            }
        }
        lines.append("")
        let health =
            report.generator.healthy
            ? "healthy"
            : "SATURATED: " + report.generator.problems.joined(separator: "; ")
        lines.append(
            "generator: \(report.generator.framesSent) frames sent · CPU \(report.generator.cpuPercentOfOneCore)% of one core "
                + "(\(report.generator.cores) cores) · \(health)"
        )
        return lines.joined(separator: "\n")
    }

    /// `close_1011 3, stall 2`; `nothing` when no fault struck.
    package static func injectedText(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "nothing" : countsText(counts)
    }

    /// Counts by name, names in order: `close_1011 3, stall 2`.
    package static func countsText(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// `48 completed, 2 failed`, and `, 3 interrupted` when sessions were wound down.
    static func outcomesText(_ sessions: RunReport.Sessions) -> String {
        let interrupted = sessions.interrupted ?? 0
        return "\(sessions.completed) completed, \(sessions.failed) failed" + (interrupted > 0 ? ", \(interrupted) interrupted" : "")
    }

    /// Why the run ended early, or why sessions were wound down: a signal, or the drain limit.
    static func windDownText(_ report: RunReport) -> String? {
        let interrupted = report.sessions.interrupted ?? 0
        if report.interrupted {
            let signal = report.interruptedBy.map { " by \($0.rawValue)" } ?? ""
            return "INTERRUPTED\(signal) after \(String(format: "%.1f", report.durationS)) s: no session started after it; "
                + "\(interrupted) open session\(interrupted == 1 ? " was" : "s were") wound down"
        }
        guard interrupted > 0, let drainMs = report.config.drainMs else { return nil }
        return "DRAIN LIMIT: \(interrupted) session\(interrupted == 1 ? " was" : "s were") still open "
            + "\(String(format: "%.1f", Double(drainMs) / 1_000)) s after the load ended and \(interrupted == 1 ? "was" : "were") wound down"
    }

    /// The warning of a run that did not verify the server's TLS certificate (`--insecure`).
    static func insecureText(_ report: RunReport) -> String? {
        guard report.config.tlsInsecure == true else { return nil }
        return "TLS certificate verification was OFF (--insecure): the server's identity was not checked"
    }

    /// `reconnects: 5 (2 sessions recovered, 1 exhausted; closed_by_server_1011 5)`, when any were made.
    static func reconnectText(_ report: RunReport) -> String? {
        guard let reconnects = report.reconnects, reconnects.attempts > 0 else { return nil }
        let causes = countsText(reconnects.byClass)
        return "reconnects: \(reconnects.attempts) (\(reconnects.recovered) session\(reconnects.recovered == 1 ? "" : "s") recovered, "
            + "\(reconnects.exhausted) exhausted; \(causes))"
    }

    /// `callers: 200 sessions drawn · noise babble 67, pink 74, road 59 · SNR 10.07–19.98 dB ·
    /// gain -5.92–5.97 dB · rate 0.8–1.2` (what was drawn), when the callers vary.
    static func callerText(_ report: RunReport) -> String? {
        guard let callers = report.callers else { return nil }
        let span = { (span: CallerDraws.Span?, unit: String) in
            span.map { CallerVariation.describe($0.min...$0.max) + unit }
        }
        let parts = [
            "\(callers.sessions) session\(callers.sessions == 1 ? "" : "s") drawn",
            callers.ranges.noiseBeds.isEmpty ? "no noise" : callers.noiseBeds.isEmpty ? nil : "noise " + countsText(callers.noiseBeds),
            span(callers.snrDb, " dB").map { "SNR " + $0 },
            span(callers.gainDb, " dB").map { "gain " + $0 },
            span(callers.speakingRate, "").map { "rate " + $0 },
        ]
        return "callers: " + parts.compactMap { $0 }.joined(separator: " · ")
    }

    /// `55 of 60 scheduled sessions did not start (max_in_flight 55)`.
    static func droppedText(_ report: RunReport) -> String {
        let dropped = report.sessions.dropped ?? 0
        return
            "\(dropped) of \(report.scheduledSessions) scheduled sessions did not start (\(countsText(report.sessions.droppedByReason ?? [:])))"
    }

    /// The load model in words (`50 clients`, `poisson arrivals 5/s for 60.0 s, at most 100 in flight`), plus the segment.
    static func loadText(_ config: RunReport.Configuration) -> String {
        var text = (config.load?.profileModel ?? .closed).text(clients: config.clients)
        if let segment = config.load?.segment, let count = config.load?.segmentCount { text += " · segment \(segment)/\(count)" }
        return text
    }

    /// First-audio latency per turn label, when the scenario has more than one.
    private static func labelLines(_ report: RunReport) -> [String] {
        guard report.labels.count > 1 else { return [] }
        var rows: [[String]] = [["label", "metric", "count", "p50", "p95", "max"]]
        for (label, metrics) in report.labels.sorted(by: { $0.key < $1.key }) {
            for metric in [MetricName.firstAudioFromEndMs, .userTranscriptFinalMs, .intAckMs] {
                guard let figures = metrics[metric.rawValue], figures.count > 0 else { continue }
                let cells = [figures.p50, figures.p95, figures.max].map { $0.map { String(format: "%.1f", $0) } ?? "n/a" }
                rows.append([label, metric.rawValue, String(figures.count) + (figures.lowSample == true ? "*" : "")] + cells)
            }
        }
        guard rows.count > 1 else { return [] }
        return [""] + align(rows)
    }

    /// The errors by category, each class under its category with its first example below it.
    private static func errorLines(_ report: RunReport) -> [String] {
        let groups = report.errors.grouped
        guard !groups.isEmpty else { return [] }
        var lines = ["", "errors by category:"]
        for group in groups {
            lines.append("  \(group.category) \(group.count)")
            for errorClass in group.classes {
                lines.append("    \(errorClass.name) \(errorClass.count)")
                if let first = report.errors.examples[errorClass.name]?.first {
                    lines.append("      first: " + exampleText(first))
                }
            }
        }
        return lines
    }

    /// `at 1.204 s, client 2, iteration 0: HTTP 401: bad token`.
    static func exampleText(_ example: ErrorExample) -> String {
        "at \(String(format: "%.3f", example.tS)) s, client \(example.client), iteration \(example.iteration): \(example.detail)"
    }

    /// `audio continuity: 3 of 20 replies stalled (15.0%), 12 stalls · reply_rtf min 0.812, mean 0.97`.
    static func continuityText(_ report: RunReport) -> String? {
        guard let counts = report.audioContinuity, let rate = counts.stalledTurnRatePercent else { return nil }
        var text =
            "audio continuity: \(counts.stalledTurns) of \(counts.turnsWithAudio) replies stalled "
            + "(\(String(format: "%.1f", rate))%), \(counts.stalls) stall\(counts.stalls == 1 ? "" : "s")"
        if let min = counts.replyRTF.min, let mean = counts.replyRTF.mean {
            text += " · reply_rtf min \(String(format: "%.3f", min)), mean \(String(format: "%.3f", mean))"
        }
        return text
    }

    private static func interruptionLines(_ report: RunReport) -> [String] {
        let counts = report.interruptions
        var lines: [String] = []
        if let rate = counts.falseBargeInRatePercent {
            lines += [
                "",
                "backchannels: backchannel_count \(counts.backchannels) · the agent stopped for \(counts.backchannelsStopped)"
                    + " · false_barge_in_rate \(String(format: "%.1f", rate))%",
            ]
        }
        guard counts.bargeIns > 0 else { return lines }
        lines += [
            "",
            "barge-ins: \(counts.bargeIns) · acknowledged \(counts.acknowledged) · missed_interruption \(counts.missed)"
                + " · audio_already_delivered \(counts.audioAlreadyDelivered)"
                + (counts.lateCancels > 0 ? " · late_cancels \(counts.lateCancels)" : ""),
        ]
        if counts.missed > 0 {
            lines.append("MISSED INTERRUPTIONS: \(counts.missed) of \(counts.bargeIns) barge-ins got no acknowledgement in time")
        }
        return lines
    }

    private static func row(_ name: String, _ metric: MetricReport?) -> [String] {
        guard let metric, metric.count > 0 else { return [name, "0", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"] }
        let figures = [metric.min, metric.p50, metric.p90, metric.p95, metric.p99, metric.max].map {
            $0.map { String(format: "%.1f", $0) } ?? "n/a"
        }
        let count = String(metric.count) + (metric.lowSample == true ? "*" : "")
        return [name, count] + figures
    }

    private static func align(_ rows: [[String]]) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == 0
                    ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
    }
}
